import { describe, expect, it } from 'vitest';
import type { UpstreamConnection, UpstreamConnector } from '../../../src/domain/ports.js';
import type { ServerDefinition } from '../../../src/domain/server-definition.js';
import { UpstreamPool } from '../../../src/gateway/upstream-pool.js';

const definition = { name: 'fx', transport: 'stdio', command: 'x' } as unknown as ServerDefinition;

/** A connection the test ends; `shared` and `reportsEnd` as a lease would say. */
function connection(shared: boolean, reportsEnd: boolean) {
  let end!: () => void;
  const closed = new Promise<void>((resolve) => (end = resolve));
  const made: UpstreamConnection = {
    server: 'fx',
    serverCapabilities: {},
    shared,
    reportsEnd,
    closed,
    request: () => Promise.resolve({}),
    notify: () => Promise.resolve(),
    close: () => {
      end();
      return Promise.resolve();
    },
  };
  return { made, end: () => end() };
}

function pool(made: UpstreamConnection) {
  const ends: [string, boolean, boolean][] = [];
  const connector: UpstreamConnector = { connect: () => Promise.resolve(made) };
  const upstreams = new UpstreamPool(
    connector,
    () => ({
      clientCapabilities: {},
      peer: { request: () => Promise.resolve({}), notify: () => undefined },
      sessionId: null,
    }),
    {
      connected: () => undefined,
      disconnected: (server, crashed, lost) => void ends.push([server, crashed, lost]),
    },
  );
  return { upstreams, ends };
}

describe('how an UpstreamPool tells a connection ended', () => {
  it('a shared connection that ended: lost for every session, a crash for the one reporting it', async () => {
    for (const [reportsEnd, crashed] of [
      [true, true],
      [false, false],
    ] as const) {
      const { made, end } = connection(true, reportsEnd);
      const { upstreams, ends } = pool(made);
      await upstreams.get(definition);
      end();
      await made.closed;
      await upstreams.live();
      expect(ends).toEqual([['fx', crashed, true]]);
    }
  });

  it('one the session closed itself: neither lost nor a crash', async () => {
    const { made } = connection(false, false);
    const { upstreams, ends } = pool(made);
    await upstreams.get(definition);
    await upstreams.evict('fx');
    await upstreams.live();
    expect(ends).toEqual([['fx', false, false]]);
  });
});
