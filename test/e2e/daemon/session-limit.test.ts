import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addFixture, startDaemon, type RunningDaemon } from '../../support/running-daemon.js';

/**
 * Clients that open sessions and never end them must not grow the daemon without bound:
 * past COFFER_MAX_SESSIONS, a new session closes the one whose client was quiet longest.
 */
describe('the number of sessions the daemon keeps', () => {
  let daemon: RunningDaemon;
  const clients: Client[] = [];

  beforeAll(async () => {
    daemon = await startDaemon({ COFFER_MAX_SESSIONS: '2' });
    await addFixture(daemon, 'fx');
  });
  afterAll(async () => {
    for (const client of clients) await client.close().catch(() => undefined);
    await daemon?.stop();
  });

  const sessions = async () => (await daemon.api('GET', '/status')).body.sessions as number;

  it('stays at the limit: the session quiet longest goes, the others serve on', async () => {
    for (const name of ['first', 'second', 'third']) clients.push(await daemon.client({ name }));
    expect(await sessions()).toBe(2);
    const [first, second, third] = clients;
    await expect(first!.listTools()).rejects.toThrow();
    expect((await second!.listTools()).tools.length).toBeGreaterThan(0);
    expect((await third!.listTools()).tools.length).toBeGreaterThan(0);
  });
});
