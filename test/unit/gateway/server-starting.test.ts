import { describe, expect, it } from 'vitest';
import { CofferError } from '../../../src/domain/errors.js';
import type {
  ServerStatus,
  UpstreamConnection,
  UpstreamConnector,
} from '../../../src/domain/ports.js';
import { capabilityKinds } from '../../../src/gateway/capability-kinds.js';
import { loadList } from '../../../src/gateway/list-loader.js';
import { ServerStates } from '../../../src/gateway/server-states.js';
import { allEnabled, deferred, fakePool, fakeServer, listingConnection } from './gateway-fakes.js';

const clock = { now: () => new Date('2026-01-01T00:00:00Z') };

const server = fakeServer('slow');
const preferences = allEnabled;

function connectionWithTools(): UpstreamConnection {
  return listingConnection('slow');
}

describe("a server's 'starting' state", () => {
  it('shows starting while a connect is in progress, then what the list says', async () => {
    const seen: ServerStatus['state'][] = [];
    const states = new ServerStates(clock, (_name, status) => seen.push(status.state));
    const connect = deferred<UpstreamConnection>();
    const connector: UpstreamConnector = { connect: () => connect.promise };
    const pool = fakePool(connector);
    const listing = loadList(
      { pool, preferences, states, listTimeoutMs: 60_000 },
      server,
      capabilityKinds.tool,
    );
    expect(states.status('slow').state).toBe('starting');
    connect.resolve(connectionWithTools());
    await expect(listing).resolves.toMatchObject({ supported: true });
    expect(states.status('slow')).toMatchObject({ state: 'idle', counts: { tools: 1 } });
    expect(seen[0]).toBe('starting');
  });

  it('a second list on a live connection does not show starting again', async () => {
    const states = new ServerStates(clock);
    const connector: UpstreamConnector = { connect: () => Promise.resolve(connectionWithTools()) };
    const pool = fakePool(connector);
    const deps = { pool, preferences, states, listTimeoutMs: 60_000 };
    await loadList(deps, server, capabilityKinds.tool);
    const seen: string[] = [];
    const watched = new ServerStates(clock, (_name, status) => seen.push(status.state));
    await loadList({ ...deps, states: watched }, server, capabilityKinds.tool);
    expect(seen).not.toContain('starting');
  });

  it('a failed start ends in error, not starting', async () => {
    const states = new ServerStates(clock);
    const connect = deferred<never>();
    states.starting('broken', connect.promise);
    expect(states.status('broken').state).toBe('starting');
    connect.reject(new Error('spawn failed'));
    await connect.promise.catch(() => undefined);
    states.failed('broken', new CofferError('UPSTREAM_UNAVAILABLE', 'command not found: nope'));
    expect(states.status('broken')).toMatchObject({
      state: 'error',
      last_error: { code: 'UPSTREAM_UNAVAILABLE' },
    });
  });

  it('stays starting while any of two concurrent connects is in progress', async () => {
    const states = new ServerStates(clock);
    const first = deferred<void>();
    const second = deferred<void>();
    states.starting('both', first.promise);
    states.starting('both', second.promise);
    first.resolve();
    await first.promise;
    expect(states.status('both').state).toBe('starting');
    second.resolve();
    await second.promise;
    expect(states.status('both').state).toBe('idle');
  });
});
