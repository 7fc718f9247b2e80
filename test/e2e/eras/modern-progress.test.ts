import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Client } from '@modelcontextprotocol/client';
import { addEverything } from '../../support/everything-server.js';
import { startDaemon, type RunningDaemon } from '../../support/running-daemon.js';
import { pinnedClient } from '../../support/v2-transport.js';

const LONG_RUNNING = 'everything__trigger-long-running-operation';

/** Runs server-everything's long operation of `steps` steps; the totals of its progress. */
async function progressOf(client: Client, steps: number): Promise<number[]> {
  const totals: number[] = [];
  await client.callTool(
    { name: LONG_RUNNING, arguments: { duration: steps * 0.1, steps } },
    { onprogress: (update) => totals.push(update.total ?? -1) },
  );
  return totals;
}

/**
 * 2026-07-28 requests of every client reach an upstream on one connection. Two clients
 * that both number their progress tokens from 0 each get their own progress, and only
 * theirs (found with two real SDK v2 clients: one got both operations' progress, the
 * other none).
 */
describe('progress of two 2026-07-28 clients at once', () => {
  let daemon: RunningDaemon;

  beforeAll(async () => {
    daemon = await startDaemon();
    await addEverything(daemon);
  });

  afterAll(async () => {
    await daemon?.stop();
  });

  it.each(['/mcp', 'shim'] as const)('through %s', async (path) => {
    const [a, b] = await Promise.all([
      pinnedClient(daemon, path, 'progress a'),
      pinnedClient(daemon, path, 'progress b'),
    ]);
    try {
      // v2 clients count requests, and so progress tokens, from 0: the same token on both sides.
      const [ofA, ofB] = await Promise.all([progressOf(a, 3), progressOf(b, 5)]);
      expect(ofA.length).toBeGreaterThan(0);
      expect(ofB.length).toBeGreaterThan(0);
      expect(new Set(ofA)).toEqual(new Set([3]));
      expect(new Set(ofB)).toEqual(new Set([5]));
    } finally {
      await Promise.all([a.close(), b.close()]);
    }
  });
});
