import { describe, expect, it } from 'vitest';
import { CofferError } from '../../../src/domain/errors.js';
import type { UpstreamConnection, UpstreamConnector } from '../../../src/domain/ports.js';
import { capabilityKinds } from '../../../src/gateway/capability-kinds.js';
import { aggregatedNamespace } from '../../../src/gateway/namespace.js';
import { ServerStates } from '../../../src/gateway/server-states.js';
import { SessionCatalog } from '../../../src/gateway/session-catalog.js';
import { eventually } from '../../support/eventually.js';
import { allEnabled, deferred, fakePool, fakeServer, listingConnection } from './gateway-fakes.js';

/**
 * A server still starting (a first `npx -y` download) is left out of a listing once the
 * list deadline passes, so the other servers are not held up; but a call for one of its
 * tools is for it: the call waits for its start, which only the connect deadline (the
 * connector's) bounds, instead of failing at the list deadline.
 */
const clock = { now: () => new Date('2026-01-01T00:00:00Z') };
/** Short, so each listing below is answered at its deadline without slowing the suite. */
const LIST_DEADLINE_MS = 20;
const preferences = allEnabled;

/** `ready` connects at once; `slow` connects when the test says. */
function setUp() {
  const slowStart = deferred<UpstreamConnection>();
  const connector: UpstreamConnector = {
    connect: (definition) =>
      definition.name === 'slow' ? slowStart.promise : Promise.resolve(listingConnection('ready')),
  };
  const pool = fakePool(connector);
  const late: string[] = [];
  const catalog = new SessionCatalog({
    pool,
    preferences,
    states: new ServerStates(clock),
    listTimeoutMs: LIST_DEADLINE_MS,
    onLateList: (server) => late.push(server),
    namespace: aggregatedNamespace,
    clock,
    ttlMs: 60_000,
    servers: () => Promise.resolve([fakeServer('ready'), fakeServer('slow')]),
  });
  const toolNames = async () =>
    (await catalog.list(capabilityKinds.tool)).map((tool) => tool['name']);
  return { catalog, slowStart, late, toolNames };
}

/** Tracks whether a promise settled, without awaiting it. */
function watch<T>(promise: Promise<T>): { settled: () => boolean } {
  let settled = false;
  promise.then(
    () => (settled = true),
    () => (settled = true),
  );
  return { settled: () => settled };
}

describe('a call to a server that is still starting', () => {
  it('waits past the list deadline for the server, while listings answer without it', async () => {
    const { catalog, slowStart, toolNames } = setUp();
    const resolving = catalog.resolve('tool', 'slow__echo');
    const call = watch(resolving);
    // Three listings one after the other, each answered at its own list deadline: the call
    // has outlived that deadline (twice over, which the relist it once made also would).
    for (let listing = 0; listing < 3; listing++)
      expect(await toolNames()).toEqual(['ready__echo']);
    expect(call.settled()).toBe(false);

    slowStart.resolve(listingConnection('slow'));
    await expect(resolving).resolves.toMatchObject({
      server: { name: 'slow' },
      key: 'echo',
      enabled: true,
    });
    expect(await toolNames()).toEqual(['ready__echo', 'slow__echo']);
  });

  it('fails with the start failure when the connect deadline passes', async () => {
    const { catalog, slowStart, toolNames } = setUp();
    const resolving = catalog.resolve('tool', 'slow__echo');
    const call = watch(resolving);
    expect(await toolNames()).toEqual(['ready__echo']);
    expect(call.settled()).toBe(false);

    const startFailure = new CofferError(
      'UPSTREAM_TIMEOUT',
      'Upstream "slow" did not finish starting within 60000 ms (COFFER_CONNECT_TIMEOUT_MS)',
    );
    slowStart.reject(startFailure);
    await expect(resolving).rejects.toBe(startFailure);
  });

  it('a name no server claims does not wait for a start', async () => {
    const { catalog } = setUp();
    await expect(catalog.resolve('tool', 'echo')).resolves.toBeUndefined();
  });
});

describe('a listing while a server is starting', () => {
  it('announces the late list once, however many listings gave up on it', async () => {
    const { slowStart, late, toolNames } = setUp();
    expect(await toolNames()).toEqual(['ready__echo']);
    expect(await toolNames()).toEqual(['ready__echo']);
    expect(late).toEqual([]);

    slowStart.resolve(listingConnection('slow'));
    await eventually(() => expect(late).toEqual(['slow']));
    expect(await toolNames()).toEqual(['ready__echo', 'slow__echo']);
    expect(late).toEqual(['slow']);
  });
});
