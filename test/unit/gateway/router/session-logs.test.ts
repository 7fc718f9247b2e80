import { afterEach, describe, expect, it } from 'vitest';
import type { Script } from './fake-upstream.js';
import { startSession, type Harness } from './session-harness.js';

const tools: Script = { 'tools/list': () => ({ tools: [{ name: 'work' }] }) };

let harness: Harness | undefined;
afterEach(async () => {
  await harness?.session.close();
  harness = undefined;
});

/** The upstream's log lines, sent now, and which of them the client was sent. */
async function logLines(session: Harness, ...levels: string[]): Promise<unknown[]> {
  await session.client.request('list', 'tools/list');
  const { peer } = session.upstreams.latest('fx').context;
  for (const level of levels) peer.notify('notifications/message', { level, data: level });
  // A ping answered after the lines were sent: anything relayed went out before it.
  await session.client.request('after', 'ping');
  return session.client.sent
    .filter(({ message }) => message['method'] === 'notifications/message')
    .map(({ message }) => (message['params'] as { data: unknown }).data);
}

/**
 * A 2025-11-25 client of the aggregated endpoint gets upstream log lines once it asks for
 * them with logging/setLevel, at that level or above; before, none (many upstreams, one
 * client). It said it offered logging, then sent nothing whatever it asked.
 */
describe('upstream log lines on the aggregated endpoint', () => {
  it('sends none to a client that never set a level', async () => {
    harness = await startSession({ fx: tools });
    await harness.initialize();
    expect(await logLines(harness, 'error', 'info')).toEqual([]);
  });

  it('sends those at or above the level a client set', async () => {
    harness = await startSession({ fx: tools });
    await harness.initialize();
    await harness.client.request('level', 'logging/setLevel', { level: 'warning' });
    expect(await logLines(harness, 'error', 'info', 'warning')).toEqual(['error', 'warning']);
  });
});
