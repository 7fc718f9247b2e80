import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import {
  CreateMessageRequestSchema,
  ElicitRequestSchema,
  ListRootsRequestSchema,
  ResourceUpdatedNotificationSchema,
  McpError,
} from '@modelcontextprotocol/sdk/types.js';
import { eventually } from '../../support/eventually.js';
import { toolsOnceListed } from '../../support/listed-tools.js';
import { addEverything } from '../../support/everything-server.js';
import { addFixture, startDaemon, type RunningDaemon } from '../../support/running-daemon.js';
import { upstreamLog } from '../../support/upstream-log.js';

const fullCapabilities = { roots: { listChanged: true }, sampling: {}, elicitation: {} };

/** A client that declares roots, sampling and elicitation, answering each with `tag`. */
async function richClient(daemon: RunningDaemon, tag: string): Promise<Client> {
  const client = await daemon.client({ capabilities: fullCapabilities, name: `client-${tag}` });
  client.setRequestHandler(ListRootsRequestSchema, () => ({
    roots: [{ uri: `file:///work/${tag}`, name: tag }],
  }));
  client.setRequestHandler(CreateMessageRequestSchema, () => ({
    role: 'assistant',
    content: { type: 'text', text: `sampled by ${tag}` },
    model: 'test-model',
  }));
  client.setRequestHandler(ElicitRequestSchema, () => ({
    action: 'accept',
    content: { name: tag, check: true, firstLine: 'Once upon a time' },
  }));
  return client;
}

/**
 * server-everything registers capability-dependent tools just after initialize, and its
 * first start may outlast the list deadline: either way list_changed tells.
 */
async function waitForTool(client: Client, name: string): Promise<void> {
  await toolsOnceListed(client, [name]);
}

describe('protocol fidelity through the aggregated /mcp', () => {
  let daemon: RunningDaemon;

  beforeAll(async () => {
    daemon = await startDaemon();
    await addEverything(daemon);
    await addFixture(daemon, 'fixture', ['--scenario', 'basic']);
  });

  afterAll(async () => {
    await daemon?.stop();
  });

  it('forwards progress with the client token; reset-on-progress outlives a short timeout', async () => {
    const client = await richClient(daemon, 'progress');
    await waitForTool(client, 'everything__trigger-long-running-operation'); // upstream spawned
    const progress: number[] = [];
    const result = await client.callTool(
      // Twice the timeout in all, a progress every 0.5 s: 5.5 s of slack between two of them
      // for a busy machine, where the relay of one progress can lag seconds.
      {
        name: 'everything__trigger-long-running-operation',
        arguments: { duration: 12, steps: 24 },
      },
      undefined,
      {
        onprogress: (p) => progress.push(p.progress),
        timeout: 6_000,
        resetTimeoutOnProgress: true,
      },
    );
    expect(result.isError).not.toBe(true);
    expect(progress.length).toBeGreaterThanOrEqual(23);
    expect(progress).toEqual([...progress].sort((a, b) => a - b));
  });

  it('routes sampling, elicitation and roots to the client that owns the session', async () => {
    const client = await richClient(daemon, 'alice');
    await waitForTool(client, 'everything__trigger-sampling-request');
    const sampled = await client.callTool({
      name: 'everything__trigger-sampling-request',
      arguments: { prompt: 'hello', maxTokens: 10 },
    });
    expect(JSON.stringify(sampled.content)).toContain('sampled by alice');
    const elicited = await client.callTool({
      name: 'everything__trigger-elicitation-request',
      arguments: {},
    });
    expect(JSON.stringify(elicited.content)).toContain('alice');
    const roots = await client.callTool({ name: 'everything__get-roots-list', arguments: {} });
    expect(JSON.stringify(roots.content)).toContain('file:///work/alice');
  });

  it('delivers resource updates with coffer:// URIs', async () => {
    const client = await richClient(daemon, 'subscriber');
    const uri = 'coffer://everything/demo://resource/static/document/architecture.md';
    const updates: string[] = [];
    client.setNotificationHandler(ResourceUpdatedNotificationSchema, (n) => {
      updates.push(n.params.uri);
    });
    await client.subscribeResource({ uri });
    await client.callTool({ name: 'everything__toggle-subscriber-updates', arguments: {} });
    await eventually(() => expect(updates).toContain(uri));
    await client.callTool({ name: 'everything__toggle-subscriber-updates', arguments: {} });
  });

  it('relays cancellation to the upstream with its own request id', async () => {
    const client = await richClient(daemon, 'canceller');
    await client.callTool({ name: 'fixture__stats', arguments: {} }); // upstream spawned
    const controller = new AbortController();
    const call = client.callTool({ name: 'fixture__hang', arguments: {} }, undefined, {
      signal: controller.signal,
    });
    // Cancelled once the upstream has the call (the fixture logs it), not after a guess.
    await eventually(() =>
      expect(upstreamLog(daemon.home, 'fixture')).toContain('waits for cancellation'),
    );
    controller.abort('user gave up');
    await expect(call).rejects.toThrow();
    await eventually(async () => {
      const stats = await client.callTool({ name: 'fixture__stats', arguments: {} });
      const text = (stats.content as { text: string }[])[0]!.text;
      expect(JSON.parse(text).cancelledCalls).toBe(1);
    });
  });

  it('answers an upstream sampling request with method-not-found when the client lacks it', async () => {
    const plain = await daemon.client({ capabilities: {}, name: 'plain' });
    const outcome = await plain
      .callTool({ name: 'fixture__sample', arguments: { prompt: 'hi' } })
      .catch((error: unknown) => error);
    // Either the upstream turns the refusal into an error result, or relays the error.
    const text = outcome instanceof McpError ? outcome.message : JSON.stringify(outcome);
    expect(text).toMatch(/not found|-32601/i);
  });

  it('keeps two sessions apart: each gets only its own roots and progress', async () => {
    const [a, b] = await Promise.all([richClient(daemon, 'one'), richClient(daemon, 'two')]);
    const foreign: unknown[] = [];
    for (const client of [a, b]) client.onerror = (error) => foreign.push(error);
    const [rootsA, rootsB] = await Promise.all(
      [a, b].map((client) => client.callTool({ name: 'fixture__roots', arguments: {} })),
    );
    expect(JSON.stringify(rootsA!.content)).toContain('file:///work/one');
    expect(JSON.stringify(rootsA!.content)).not.toContain('file:///work/two');
    expect(JSON.stringify(rootsB!.content)).toContain('file:///work/two');
    const counts = await Promise.all(
      [a, b].map(async (client) => {
        let seen = 0;
        await client.callTool(
          { name: 'fixture__progress', arguments: { count: 4, delay_ms: 20 } },
          undefined,
          { onprogress: () => (seen += 1) },
        );
        return seen;
      }),
    );
    expect(counts).toEqual([4, 4]);
    // A progress notification for a token a client does not know lands in onerror.
    expect(foreign).toEqual([]);
  });
});
