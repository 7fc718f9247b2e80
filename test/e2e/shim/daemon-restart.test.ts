import { afterEach, beforeEach, expect, it } from 'vitest';
import { eventually } from '../../support/eventually.js';
import { upstreamLog } from '../../support/upstream-log.js';
import { isAlive, titleOf, waitUntil } from '../../integration/shim/support/processes.js';
import { ShimClient } from '../../integration/shim/support/shim-client.js';
import { createCofferHome, type CofferHome } from './support/coffer-home.js';

/**
 * The daemon goes away under a live shim (crash, upgrade, `coffer stop`): what was in
 * flight fails at once, and the next call succeeds through the same shim without the
 * agent doing anything.
 */

let coffer: CofferHome;
let client: ShimClient;

beforeEach(async () => {
  coffer = await createCofferHome();
  client = ShimClient.spawn(coffer.env);
  await client.initialize({ sampling: {} });
  await coffer.addFixture('fx');
});

afterEach(async () => {
  expect(await client.close()).toEqual({ code: 0, signal: null });
  expect(client.nonJsonRpcLines()).toEqual([]);
  expect(await coffer.cleanup(), 'processes left behind').toEqual([]);
});

const echo = (value: string) =>
  client.request('tools/call', { name: 'fx__echo', arguments: { value } });

it('daemon killed: the call in flight fails at once, the next call respawns it and succeeds', async () => {
  expect((await echo('before')).result.content[0].text).toContain('before');
  const killed = coffer.daemonFile()!.pid;
  const hanging = client.request('tools/call', { name: 'fx__hang', arguments: {} });
  // The upstream has the call (the fixture logs it): only the daemon's death can end it now.
  await eventually(() =>
    expect(upstreamLog(coffer.home, 'fx')).toContain('waits for cancellation'),
  );

  process.kill(killed, 'SIGKILL');
  const failed = await hanging;
  expect(failed.error.data.coffer_code).toBe('DAEMON_UNAVAILABLE');
  await waitUntil(() => !isAlive(killed), 30_000, 'the killed daemon to be gone');

  const after = await echo('after');
  expect(after.result.content[0].text).toContain('after');
  const respawned = coffer.daemonFile()!.pid;
  expect(respawned).not.toBe(killed);
  expect(titleOf(respawned)).toBe('coffer-daemon');
  // The agent is told its lists may have changed with the daemon.
  await client.waitFor((m) => m.method === 'notifications/tools/list_changed');
});

it('daemon stopped and started again by the user: the next call succeeds through the same shim', async () => {
  expect((await echo('one')).result).toBeDefined();
  const first = coffer.daemonFile()!;
  expect((await coffer.coffer('stop')).code).toBe(0);
  expect((await coffer.coffer('start')).code).toBe(0);
  const second = coffer.daemonFile()!;
  expect(second.pid).not.toBe(first.pid);
  const response = await echo('two');
  expect(response.error).toBeUndefined();
  expect(response.result.content[0].text).toContain('two');
  expect(coffer.daemonFile()!.pid).toBe(second.pid);
});
