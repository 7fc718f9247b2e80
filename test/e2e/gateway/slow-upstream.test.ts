import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  startDaemon,
  type RunningDaemon,
  fixtureServer as fixture,
} from '../../support/running-daemon.js';
import { toolsOnceListed } from '../../support/listed-tools.js';

/**
 * A slow upstream must not hold the others hostage: once the list timeout passes, its
 * tools are simply absent and the failure is visible in the server's status.
 */
describe('a slow upstream in an aggregated list', () => {
  let daemon: RunningDaemon;

  beforeAll(async () => {
    // Far below the slow fixture's 60 s start, far above a loaded machine's spawn time.
    daemon = await startDaemon({ COFFER_LIST_TIMEOUT_MS: '15000' });
  });

  afterAll(async () => {
    await daemon?.stop();
  });

  it('lists the fast upstream without the slow one, and reports the slow one', async () => {
    await register(daemon, 'fast', ['--scenario', 'basic']);
    const client = await daemon.client();
    // Spawn the fast upstream first, so a loaded test machine cannot make IT the slow one.
    await toolsOnceListed(client, ['fast__echo']);
    await register(daemon, 'sluggish', ['--scenario', 'slow', '--init-delay-ms', '60000']);

    const { tools } = await client.listTools();
    const names = tools.map((tool) => tool.name);
    // The slow fixture needs 60 s to initialize: had the list waited, its tools would be here.
    expect(names).toContain('fast__echo');
    expect(names.some((name) => name.startsWith('sluggish__'))).toBe(false);
    const { body } = await daemon.api('GET', '/servers/sluggish');
    expect(body.server.status.last_error).toMatchObject({ code: 'UPSTREAM_TIMEOUT' });
  });
});

async function register(daemon: RunningDaemon, name: string, args: string[]): Promise<void> {
  const response = await daemon.api('POST', '/servers', {
    name,
    transport: 'stdio',
    command: process.execPath,
    args: [fixture, ...args],
  });
  expect(response.status).toBe(201);
}
