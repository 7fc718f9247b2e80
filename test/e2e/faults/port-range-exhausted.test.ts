import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  assertBuilt,
  closeServer,
  cofferEnv,
  freePortBlock,
  makeHome,
  occupy,
  ProcessTracker,
  readDaemonJson,
  runCoffer,
} from '../../integration/daemon/daemon-harness.js';
import { ShimClient } from '../../integration/shim/support/shim-client.js';

/**
 * Every port of COFFER_PORT_RANGE held by someone else. `coffer daemon` and `coffer start`
 * exit 5 naming the range and leave no daemon.json: test/integration/daemon/
 * daemon-process.test.ts and test/e2e/daemon/daemon-lifecycle.test.ts prove that. Here:
 * the clients that start a daemon on demand (a command, the shim) pass on the same
 * stable code and the same advice, hang nowhere, and the shim recovers once a port frees.
 */
const tracker = new ProcessTracker();

beforeAll(() => assertBuilt());
afterEach(() => tracker.cleanup());

async function exhausted() {
  const home = tracker.home(await makeHome());
  const block = await freePortBlock(2);
  const servers = await occupy(block);
  return { home, block, servers, env: cofferEnv({ home, portRange: block.env }) };
}

describe('port range exhausted', () => {
  it('a command that needs the daemon exits 5 with the range and what to do', async () => {
    const { home, block, servers, env } = await exhausted();
    try {
      const result = await runCoffer(['mcp', 'list'], env, 30_000);
      expect(result.signal, 'hung').toBeNull();
      expect(result.code).toBe(5);
      expect(result.stderr).toContain(`every port in the range ${block.env}`);
      expect(result.stderr).toContain('set COFFER_PORT_RANGE=lo-hi');
      expect(readDaemonJson(home)).toBeUndefined();
    } finally {
      await Promise.all(servers.map(closeServer));
    }
  });

  it('the shim answers PORT_RANGE_EXHAUSTED with advice, and serves once a port is free', async () => {
    const { home, block, servers, env } = await exhausted();
    const shim = ShimClient.spawn(env);
    tracker.child(shim.child);
    try {
      const init = await shim.initialize();
      expect(init.error?.data).toMatchObject({
        coffer_code: 'PORT_RANGE_EXHAUSTED',
        hint: expect.stringContaining('COFFER_PORT_RANGE'),
      });
      expect(init.error?.message).toContain(block.env);
      expect(existsSync(join(home, 'daemon.json'))).toBe(false);

      await closeServer(servers.shift()!); // the user frees a port
      // The shim starts the daemon on the next request, initializing it with the client's
      // original parameters.
      const list = await shim.request('tools/list');
      expect(Array.isArray(list.result?.tools), JSON.stringify(list)).toBe(true);
      expect(readDaemonJson(home)?.['port']).toBe(block.first);
    } finally {
      await Promise.all(servers.map(closeServer));
    }
    expect((await shim.close()).code).toBe(0);
    expect(shim.nonJsonRpcLines()).toEqual([]);
  });
});
