import { afterAll, afterEach, beforeAll, expect } from 'vitest';
import { ShimClient } from '../../../integration/shim/support/shim-client.js';
import { createCofferHome, type CofferHome } from './coffer-home.js';

export interface ShimSuite {
  /** A shim for the suite's home (`coffer shim <args>`), closed after the test that spawned it. */
  readonly shim: (args?: readonly string[]) => ShimClient;
  /** The suite's Coffer home, once its beforeAll has run. */
  readonly home: () => CofferHome;
}

/**
 * The set-up the e2e shim files share: a Coffer home of their own, shims that must each
 * exit 0 having written nothing but JSON-RPC, and no process left behind at the end. With
 * `fixture`, the first shim starts the daemon and the fixture is registered as `fx`; `env`
 * is added to every shim's environment (and so to the daemon the first one starts).
 */
export function shimSuite(
  options: { readonly fixture?: boolean; readonly env?: NodeJS.ProcessEnv } = {},
): ShimSuite {
  let coffer: CofferHome | undefined;
  const shims: ShimClient[] = [];
  const home = (): CofferHome => {
    if (coffer === undefined) throw new Error('the shim suite is used before its beforeAll');
    return coffer;
  };
  const shim = (args: readonly string[] = []): ShimClient => {
    const started = ShimClient.spawn({ ...home().env, ...options.env }, args);
    shims.push(started);
    return started;
  };

  beforeAll(async () => {
    coffer = await createCofferHome();
    if (options.fixture !== true) return;
    await shim().initialize();
    await coffer.addFixture('fx');
  });

  afterEach(async () => {
    for (const client of shims.splice(0)) {
      expect(await client.close()).toEqual({ code: 0, signal: null });
      expect(client.nonJsonRpcLines()).toEqual([]);
    }
  });

  afterAll(async () => {
    expect(await coffer?.cleanup(), 'processes left behind').toEqual([]);
  });

  return { shim, home };
}
