import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import {
  ListRootsRequestSchema,
  ResourceUpdatedNotificationSchema,
} from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually } from '../../support/eventually.js';
import { addFixture, startDaemon, type RunningDaemon } from '../../support/running-daemon.js';
import { textOf } from '../../support/tool-result.js';
import { recordedPids } from '../../support/upstream-processes.js';

/**
 * A 2025 server the user marked `shared` (the fixture, SDK v1): one process serves every
 * session, it is told of no client capabilities, and a resource update reaches only the
 * sessions subscribed to it. The same fixture unshared keeps one process per session.
 */
const HELLO = 'fixture://static/hello.txt';

/** Ends the client's MCP session on the daemon (HTTP DELETE), then the client. */
async function endSession(client: Client): Promise<void> {
  await (client.transport as StreamableHTTPClientTransport).terminateSession();
  await client.close();
}

describe('a 2025 upstream marked shared', () => {
  let daemon: RunningDaemon;
  let first: Client;
  let second: Client;

  beforeAll(async () => {
    daemon = await startDaemon();
    await addFixture(daemon, 'shared', [], { shared: true });
    await addFixture(daemon, 'own');
    first = await daemon.client({ name: 'first', capabilities: { roots: {} } });
    second = await daemon.client({ name: 'second', capabilities: { roots: {} } });
  });

  afterAll(async () => {
    await daemon?.stop();
  });

  it('serves every session from one process; an unshared server keeps one per session', async () => {
    for (const client of [first, second]) {
      const echoed = await client.callTool({ name: 'shared__echo', arguments: { v: 1 } });
      expect(echoed.isError).toBeFalsy();
      await client.callTool({ name: 'own__echo', arguments: { v: 1 } });
    }
    expect(recordedPids(daemon, 'shared')).toHaveLength(1);
    expect(recordedPids(daemon, 'own').length).toBeGreaterThanOrEqual(2);
    // The one process sees one MCP session, whichever Coffer session asks.
    const stats = await second.callTool({ name: 'shared__stats', arguments: {} });
    expect(JSON.parse(textOf(stats))).toMatchObject({ sessions: 1 });
  });

  it("never asks an agent: the shared server was told of no client's roots", async () => {
    await expect(first.callTool({ name: 'shared__roots', arguments: {} })).rejects.toThrow(
      /roots\/list.*cannot ask one of them.*coffer mcp unshare/,
    );
    // The same server unshared asks the calling session's client, which answers.
    first.setRequestHandler(ListRootsRequestSchema, () => ({
      roots: [{ uri: 'file:///work', name: 'work' }],
    }));
    const own = await first.callTool({ name: 'own__roots', arguments: {} });
    expect(JSON.parse(textOf(own))).toEqual({ roots: [{ uri: 'file:///work', name: 'work' }] });
  });

  it('sends a resource update to the subscribed session only', async () => {
    const uri = `coffer://shared/${HELLO}`;
    const heard = { first: [] as string[], second: [] as string[] };
    first.setNotificationHandler(ResourceUpdatedNotificationSchema, (note) => {
      heard.first.push(note.params.uri);
    });
    second.setNotificationHandler(ResourceUpdatedNotificationSchema, (note) => {
      heard.second.push(note.params.uri);
    });
    await first.subscribeResource({ uri });
    const touched = await second.callTool({ name: 'shared__touch', arguments: { uri: HELLO } });
    expect(textOf(touched)).toContain('notified 1 subscribed session');
    await eventually(() => expect(heard.first).toEqual([uri]));
    // A round trip on the bystander's session after the update: nothing came for it.
    await second.ping();
    expect(heard.second).toEqual([]);
    await first.unsubscribeResource({ uri });
    const after = await second.callTool({ name: 'shared__touch', arguments: { uri: HELLO } });
    expect(textOf(after)).toContain('notified 0 subscribed session');
  });

  it('ends the shared process with its last session', async () => {
    const [pid] = recordedPids(daemon, 'shared');
    expect(pid).toBeDefined();
    await endSession(first);
    expect(recordedPids(daemon, 'shared')).toEqual([pid]);
    await endSession(second);
    await eventually(() => expect(recordedPids(daemon, 'shared')).toEqual([]));
  });
});
