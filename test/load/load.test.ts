import { randomUUID } from 'node:crypto';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually } from '../support/eventually.js';
import { startDaemon, type RunningDaemon } from '../support/running-daemon.js';
import { pidsWith, registerFixture } from '../e2e/faults/fault-support.js';

const SESSIONS = 16;
const CALLS_PER_SESSION = 200;

/**
 * CI-sized load: 16 MCP sessions at once on /mcp, 200 tools/call each, against the real
 * fixture over stdio (one upstream process per session, ADR-005). Zero errors, every result
 * the right one, every session closed, and no upstream process left afterwards (counted in
 * /proc by a marker on the fixture's command line). Throughput is printed, never asserted;
 * `npm run soak` is the long version.
 */
describe.runIf(process.platform === 'linux')('load: 16 sessions × 200 calls', () => {
  let daemon: RunningDaemon;
  const marker = `load-${randomUUID()}`;

  beforeAll(async () => {
    daemon = await startDaemon();
    await registerFixture(daemon, 'load', ['--name', marker]);
  });

  afterAll(async () => {
    await daemon?.stop();
  });

  it('answers every call, closes every session, leaks no upstream process', async () => {
    const clients = await Promise.all(
      Array.from({ length: SESSIONS }, (_, index) => daemon.client({ name: `load-${index}` })),
    );
    const started = performance.now();
    const outcomes = await Promise.all(clients.map((client, index) => drive(client, index)));
    const seconds = (performance.now() - started) / 1000;
    const calls = SESSIONS * CALLS_PER_SESSION;
    process.stderr.write(
      `load: ${calls} calls in ${seconds.toFixed(1)} s (${Math.round(calls / seconds)} calls/s)\n`,
    );

    expect(outcomes.flatMap((outcome) => outcome.errors)).toEqual([]);
    expect(outcomes.map((outcome) => outcome.ok)).toEqual(Array(SESSIONS).fill(CALLS_PER_SESSION));
    // One upstream process per session, no more.
    expect(pidsWith(marker)).toHaveLength(SESSIONS);
    expect((await daemon.api('GET', '/status')).body.sessions).toBe(SESSIONS);

    await Promise.all(
      clients.map(async (client) => {
        await (
          client.transport as unknown as { terminateSession(): Promise<void> }
        ).terminateSession();
        await client.close();
      }),
    );
    await eventually(async () => {
      expect((await daemon.api('GET', '/status')).body.sessions).toBe(0);
    });
    await eventually(() => expect(pidsWith(marker)).toEqual([]));
  });
});

/** One session's calls, one after another; every answer must echo its own arguments. */
async function drive(client: Client, session: number): Promise<{ ok: number; errors: string[] }> {
  let ok = 0;
  const errors: string[] = [];
  for (let call = 0; call < CALLS_PER_SESSION; call += 1) {
    try {
      const result = await client.callTool({ name: 'load__echo', arguments: { session, call } });
      const [first] = result.content as { text: string }[];
      const echoed = JSON.parse(first!.text) as { session: number; call: number };
      if (result.isError === true || echoed.session !== session || echoed.call !== call) {
        errors.push(`session ${session} call ${call}: wrong answer ${first!.text}`);
      } else ok += 1;
    } catch (error) {
      errors.push(`session ${session} call ${call}: ${explain(error)}`);
    }
  }
  return { ok, errors };
}

/** fetch's "fetch failed" hides the reason in `cause`: show both. */
function explain(error: unknown): string {
  const cause = (error as { cause?: unknown }).cause;
  return cause instanceof Error ? `${String(error)} (${cause.message})` : String(error);
}
