import { describe, expect, it, vi } from 'vitest';
import { CofferError } from '../../../src/domain/errors.js';
import type {
  JsonObject,
  UpstreamConnection,
  UpstreamConnector,
} from '../../../src/domain/ports.js';
import { capabilityKinds } from '../../../src/gateway/capability-kinds.js';
import { loadList } from '../../../src/gateway/list-loader.js';
import { aggregatedNamespace } from '../../../src/gateway/namespace.js';
import { ServerStates } from '../../../src/gateway/server-states.js';
import { SessionCatalog } from '../../../src/gateway/session-catalog.js';
import type { UpstreamPool } from '../../../src/gateway/upstream-pool.js';
import { allEnabled, deferred, fakePool, fakeServer, listingConnection } from './gateway-fakes.js';

const clock = { now: () => new Date('2026-01-01T00:00:00Z') };
const gone = new CofferError('UPSTREAM_UNAVAILABLE', 'Upstream "files" closed the connection');

/** One session's catalog of the one server "files", its lists bounded by `listTimeoutMs`. */
function sessionCatalog(states: ServerStates, pool: UpstreamPool, listTimeoutMs: number) {
  return new SessionCatalog({
    pool,
    preferences: allEnabled,
    states,
    listTimeoutMs,
    namespace: aggregatedNamespace,
    clock,
    ttlMs: 60_000,
    servers: () => Promise.resolve([fakeServer('files')]),
  });
}

describe('a list failure against a newer success', () => {
  it('is old news when its list began before one that has since succeeded', () => {
    const changes: string[] = [];
    const states = new ServerStates(clock, (server, status) =>
      changes.push(`${server}:${status.state}`),
    );
    const older = states.listing();
    const newer = states.listing();
    states.listed('files', 'tool', 3, newer);
    states.failed('files', gone, older);
    expect(states.status('files')).toMatchObject({ state: 'idle', last_error: null });
    expect(changes).toEqual(['files:idle']);
  });

  it('counts when its list began after the latest success, or had no ticket', () => {
    const states = new ServerStates(clock);
    states.listed('files', 'tool', 3, states.listing());
    states.failed('files', gone, states.listing());
    expect(states.status('files')).toMatchObject({
      state: 'error',
      last_error: { code: 'UPSTREAM_UNAVAILABLE' },
    });
    const other = new ServerStates(clock);
    other.listed('files', 'tool', 3, other.listing());
    other.failed('files', gone);
    expect(other.status('files').state).toBe('error');
  });

  it("is ordered per server: one server's success hides no other's failure", () => {
    const states = new ServerStates(clock);
    const older = states.listing();
    states.listed('files', 'tool', 3, states.listing());
    states.failed('git', gone, older);
    expect(states.status('git').state).toBe('error');
  });

  it('loadList: a list that fails after a later one succeeded leaves the server healthy', async () => {
    const states = new ServerStates(clock);
    const slow = deferred<JsonObject>();
    let requests = 0;
    // The first list hangs until the test fails it; the second answers at once.
    const connection = listingConnection('files', () =>
      ++requests === 1 ? slow.promise : Promise.resolve({ tools: [{ name: 'read' }] }),
    );
    const connector: UpstreamConnector = { connect: () => Promise.resolve(connection) };
    const pool = fakePool(connector);
    const deps = { pool, preferences: allEnabled, states, listTimeoutMs: 60_000 };
    const server = fakeServer('files');
    const first = loadList(deps, server, capabilityKinds.tool);
    await expect.poll(() => requests).toBe(1);
    await loadList(deps, server, capabilityKinds.tool);
    // Hopeless: no retry, the failure is reported as it is.
    slow.reject(new CofferError('UPSTREAM_TIMEOUT', 'Upstream "files" did not answer in time'));
    await expect(first).rejects.toMatchObject({ code: 'UPSTREAM_TIMEOUT' });
    expect(states.status('files')).toMatchObject({
      state: 'idle',
      last_error: null,
      counts: { tools: 1 },
    });
  });

  it('a list deadline missed before a later list succeeded leaves the server healthy', async () => {
    // The deadline's timer, moved by the test: it must pass after B's list, not before.
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    try {
      const states = new ServerStates(clock);
      // Session A's upstream is still starting; session B's answers at once.
      const startingA = deferred<UpstreamConnection>();
      const connectA = deferred<undefined>();
      const catalogA = sessionCatalog(
        states,
        fakePool({
          connect: () => {
            connectA.resolve(undefined);
            return startingA.promise;
          },
        }),
        20,
      );
      const connectionB = listingConnection('files', () =>
        Promise.resolve({ tools: [{ name: 'read' }] }),
      );
      const catalogB = sessionCatalog(
        states,
        fakePool({ connect: () => Promise.resolve(connectionB) }),
        20,
      );
      const listingA = catalogA.list(capabilityKinds.tool);
      await connectA.promise;
      const listedB = await catalogB.list(capabilityKinds.tool);
      expect(listedB.map((tool) => tool['name'])).toEqual(['files__read']);
      // A answers at its deadline without the server: a miss older than B's success.
      vi.advanceTimersByTime(20);
      expect(await listingA).toEqual([]);
      expect(states.status('files')).toMatchObject({ state: 'starting', last_error: null });
      // A's start fails in the end: old news as well.
      startingA.reject(gone);
      await expect.poll(() => states.status('files')).toMatchObject({ state: 'idle' });
      expect(states.status('files').last_error).toBeNull();
    } finally {
      vi.useRealTimers();
    }
  });
});
