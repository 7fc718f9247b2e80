import { afterAll, beforeAll, expect, it } from 'vitest';
import { titleOf, waitUntil } from '../../integration/shim/support/processes.js';
import { ShimClient } from '../../integration/shim/support/shim-client.js';
import { createCofferHome, type CofferHome } from './support/coffer-home.js';

/**
 * Agents start their MCP servers together (an IDE opening with several agents): 20 shims
 * started at once on a machine with no daemon must end up on exactly one daemon.
 */

let coffer: CofferHome;

beforeAll(async () => {
  coffer = await createCofferHome();
});

afterAll(async () => {
  expect(await coffer.cleanup(), 'processes left behind').toEqual([]);
});

it('20 shims started at once with no daemon share exactly one daemon', async () => {
  expect(coffer.daemonFile()).toBeUndefined();
  const shims = Array.from({ length: 20 }, () => ShimClient.spawn(coffer.env));
  try {
    const inits = await Promise.all(shims.map((shim) => shim.initialize()));
    for (const init of inits) expect(init.result?.serverInfo?.name).toBe('coffer');
    const lists = await Promise.all(shims.map((shim) => shim.request('tools/list')));
    for (const list of lists) expect(Array.isArray(list.result?.tools)).toBe(true);

    const daemons = coffer.processes().filter((pid) => titleOf(pid) === 'coffer-daemon');
    expect(daemons).toEqual([coffer.daemonFile()!.pid]);
    expect((await coffer.api('GET', '/status')).body.sessions).toBe(20);
  } finally {
    const exits = await Promise.all(shims.map((shim) => shim.close()));
    expect(exits.every((exit) => exit.code === 0)).toBe(true);
  }
  for (const shim of shims) expect(shim.nonJsonRpcLines()).toEqual([]);
  // Every shim closed its connection (its session) before exiting; the daemon finishes closing them.
  await waitUntil(
    async () => (await coffer.api('GET', '/status')).body.sessions === 0,
    30_000,
    'all sessions closed',
  );
});
