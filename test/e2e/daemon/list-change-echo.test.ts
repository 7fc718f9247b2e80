import { performance } from 'node:perf_hooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { QUIET_MS } from '../../../src/gateway/admin-peers.js';
import {
  addNodeServer,
  fixtureServer,
  startDaemon,
  type RunningDaemon,
} from '../../support/running-daemon.js';
import { sseReader } from '../../support/sse-reader.js';

/**
 * A server that announces tools/list_changed after every tools/list, its tools unchanged
 * (the fixture's `--list-changed-on-list`), and the web UI's server page, which lists a
 * server again at each `server.changed` of it: played here through the REST API as the
 * page does it. Before the hold (src/gateway/admin-peers.ts) the two listed each other in
 * a loop, hundreds of times a second, for as long as the page was open; now the relist
 * that finds the tools as they were holds the next announcement (1 s, then longer).
 */
describe('the server page of a server that announces a change at every listing', () => {
  let daemon: RunningDaemon;

  beforeAll(async () => {
    daemon = await startDaemon();
    await addNodeServer(daemon, 'chatty', [fixtureServer, '--list-changed-on-list']);
  });
  afterAll(async () => {
    await daemon?.stop();
  });

  it('is listed again after a hold, not at once again and again', async () => {
    const response = await fetch(`${daemon.baseUrl}/api/v1/events`, {
      headers: { authorization: `Bearer ${daemon.token}` },
    });
    const events = sseReader(response.body!);
    expect(await events.next()).toEqual({ type: 'ready' });
    const list = async () => {
      const listed = await daemon.api('GET', '/servers/chatty/capabilities');
      expect(listed.body.tools.status).toBe('ok');
    };

    await list(); // the page opens
    const announcedAt: number[] = [];
    while (announcedAt.length < 2) {
      const event = await events.next();
      if (event['type'] !== 'server.changed' || event['server'] !== 'chatty') continue;
      announcedAt.push(performance.now());
      await list(); // the page lists again, as it does at each change
    }
    await events.cancel();

    // The first echo is news; the relist finds the tools as they were, so the next waits.
    const [first = 0, second = 0] = announcedAt;
    expect(second - first).toBeGreaterThanOrEqual(QUIET_MS[0] * 0.9);
    const stats = await daemon.api('POST', '/servers/chatty/call', {
      tool: 'stats',
      arguments: {},
    });
    const counters = JSON.parse(stats.body.result.content[0].text as string) as {
      toolLists: number;
    };
    // Three listings by the page, the one the call itself needed, and no loop.
    expect(counters.toolLists).toBeLessThanOrEqual(5);
  });
});
