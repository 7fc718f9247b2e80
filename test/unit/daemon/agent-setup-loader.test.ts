import { describe, expect, it } from 'vitest';
import type { SyncAgentSetup } from '../../../src/agents/index.js';
import { lazyAgentSetup } from '../../../src/daemon/agent-setup-loader.js';
import { CofferError } from '../../../src/domain/errors.js';

const options = { known: [] };

describe('lazyAgentSetup', () => {
  it('loads once, on first use', async () => {
    let loads = 0;
    const setup = lazyAgentSetup(() => {
      loads += 1;
      return Promise.resolve({ list: () => [] } as unknown as SyncAgentSetup);
    });
    expect(loads).toBe(0);
    expect(await setup.list(options)).toEqual([]);
    expect(await setup.list(options)).toEqual([]);
    expect(loads).toBe(1);
  });

  it('says the daemon must restart when its files were replaced under it', async () => {
    // A real failed import: what a chunk renamed by a newer build gives a running daemon.
    const setup = lazyAgentSetup(
      () => import(`${'./gone-since-the-daemon-started'}.js`) as Promise<SyncAgentSetup>,
    );
    const error = await setup.list(options).then(
      () => undefined,
      (failure: unknown) => failure,
    );
    expect(error).toBeInstanceOf(CofferError);
    expect(error).toMatchObject({ code: 'DAEMON_UNAVAILABLE' });
    expect((error as CofferError).message).toContain('updated or rebuilt since it started');
    expect((error as CofferError).hint).toContain('coffer stop');
  });

  it('lets any other failure through as it is', async () => {
    const failure = new Error('parser crashed');
    const setup = lazyAgentSetup(() => Promise.reject(failure));
    await expect(setup.doctor({ port: 1, token: 't' })).rejects.toBe(failure);
  });
});
