import { afterEach, expect, it } from 'vitest';
import { eventually } from '../../support/eventually.js';
import { pidsWithArg, waitUntil } from '../../integration/shim/support/processes.js';
import { ShimClient } from '../../integration/shim/support/shim-client.js';
import { createCofferHome, type CofferHome } from '../shim/support/coffer-home.js';

/**
 * A shim SIGKILLed by its agent says nothing more: its socket connection closes with the
 * process, and the daemon closes the session and its upstream processes.
 */

let coffer: CofferHome | undefined;

afterEach(async () => {
  expect(await coffer?.cleanup(), 'processes left behind').toEqual([]);
  coffer = undefined;
});

it('a SIGKILLed shim: its session and upstream process end', async () => {
  coffer = await createCofferHome();
  const shim = ShimClient.spawn(coffer.env);
  await shim.initialize();
  const marker = await coffer.addFixture('fx');
  const echoed = await shim.request('tools/call', { name: 'fx__echo', arguments: { v: 1 } });
  expect(echoed.result.content[0].text).toContain('1');
  expect(pidsWithArg(marker)).toHaveLength(1);
  expect((await coffer.api('GET', '/status')).body.sessions).toBe(1);

  shim.child.kill('SIGKILL');
  await shim.exited;

  await waitUntil(() => pidsWithArg(marker).length === 0, 30_000, 'the upstream to end');
  // Ending the upstream and forgetting the session are two steps: wait for the second too.
  await eventually(async () => expect((await coffer!.api('GET', '/status')).body.sessions).toBe(0));
});
