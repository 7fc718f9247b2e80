/**
 * The daemon's shared upstream connections, one per server definition, each used by
 * every session through its own lease (src/upstream/upstream-lease.ts): every modern
 * (2026-07-28) upstream, and a 2025 one whose user marked it `shared`.
 * Sharing a modern server is safe because it keeps no per-connection state: each request
 * carries its caller's capabilities, and questions come back as input-required results,
 * answered on the calling session. A shared 2025 server was initialized with no client
 * capabilities, so it asks nothing either (server→client requests are refused), and its
 * resource updates go to the sessions subscribed to the URI. The upstream's other
 * notifications (list changes) go to every session holding a lease. A connection closes
 * when its last lease is released; one that ends on its own ends every lease with it.
 */
import type { JsonObject, UpstreamConnectContext, UpstreamPeer } from '../domain/ports.js';
import { UpstreamRpcError } from '../domain/ports.js';
import type { JsonRpcUpstreamConnection } from './jsonrpc-upstream-connection.js';
import { SharedSubscriptions } from './shared-subscriptions.js';
import { UpstreamLease } from './upstream-lease.js';

const UPDATED = 'notifications/resources/updated';

interface Shared {
  readonly connection: JsonRpcUpstreamConnection;
  readonly leases: Set<UpstreamLease>;
  /** A 2025 connection's resource subscriptions (a modern one's are listens per lease). */
  readonly subscriptions: SharedSubscriptions<UpstreamLease>;
}

export class SharedUpstreams {
  private readonly byKey = new Map<string, Shared>();
  /** Connects in progress, so concurrent sessions wait for one instead of each spawning. */
  private readonly opening = new Map<string, Promise<JsonRpcUpstreamConnection>>();

  constructor(private readonly clientInfo: { name: string; version: string }) {}

  /** A lease on the live shared connection for `key`, if there is one. */
  lease(key: string, context: UpstreamConnectContext): UpstreamLease | undefined {
    const shared = this.byKey.get(key);
    return shared === undefined ? undefined : this.newLease(key, shared, context);
  }

  /**
   * A lease on the shared connection for `key`, opening it with `open` (given the peer
   * the connection must report to) when there is none; one open at a time per key.
   */
  async leaseOrOpen(
    key: string,
    context: UpstreamConnectContext,
    open: (peer: UpstreamPeer) => Promise<JsonRpcUpstreamConnection>,
  ): Promise<UpstreamLease> {
    const live = this.lease(key, context);
    if (live !== undefined) return live;
    let pending = this.opening.get(key);
    if (pending === undefined) {
      pending = open(this.peerFor(key));
      this.opening.set(key, pending);
      const done = () => {
        if (this.opening.get(key) === pending) this.opening.delete(key);
      };
      pending.then(done, done);
    }
    return this.adopt(key, await pending, context);
  }

  /**
   * Makes `connection` (just opened) the shared one for `key` and leases it;
   * when another session's connect won the race, `connection` is closed and theirs leased.
   */
  async adopt(
    key: string,
    connection: JsonRpcUpstreamConnection,
    context: UpstreamConnectContext,
  ): Promise<UpstreamLease> {
    const existing = this.byKey.get(key);
    if (existing !== undefined && existing.connection !== connection) {
      await connection.close();
      return this.newLease(key, existing, context);
    }
    if (existing !== undefined) return this.newLease(key, existing, context);
    const subscriptions = new SharedSubscriptions<UpstreamLease>((method, uri) =>
      connection.request(method, { uri }),
    );
    const shared: Shared = { connection, leases: new Set(), subscriptions };
    this.byKey.set(key, shared);
    void connection.closed.then(() => {
      if (this.byKey.get(key) === shared) this.byKey.delete(key);
      // Runs before any lease's own `closed` settles (it subscribed first).
      const [witness] = shared.leases;
      witness?.witnessEnd();
    });
    return this.newLease(key, shared, context);
  }

  /** The peer a shared connection reports to: every session holding a lease. */
  peerFor(key: string): UpstreamPeer {
    return {
      request: (method) => Promise.reject(sharedCannotAsk(method)),
      notify: (method, params) => this.broadcast(key, method, params),
    };
  }

  private broadcast(key: string, method: string, params: JsonObject | undefined): void {
    const shared = this.byKey.get(key);
    if (shared === undefined) return;
    for (const lease of targetsOf(shared, method, params)) lease.peer.notify(method, params);
  }

  private newLease(key: string, shared: Shared, context: UpstreamConnectContext): UpstreamLease {
    const lease = new UpstreamLease(
      shared.connection,
      context,
      this.clientInfo,
      (released) => this.released(key, shared, released),
      shared.subscriptions,
    );
    shared.leases.add(lease);
    return lease;
  }

  private released(key: string, shared: Shared, lease: UpstreamLease): void {
    shared.leases.delete(lease);
    if (shared.leases.size > 0) return;
    if (this.byKey.get(key) === shared) this.byKey.delete(key);
    void shared.connection.close().catch(() => undefined);
  }
}

/**
 * A shared connection serves every session: no one client can answer for it. A modern
 * server has no such requests; a shared 2025 one was told no client can answer them.
 */
function sharedCannotAsk(method: string): UpstreamRpcError {
  return new UpstreamRpcError(
    -32601,
    `Method not found: ${method}. Coffer shares this server's connection between agent ` +
      'sessions, so it cannot ask one of them; `coffer mcp unshare <server>` gives each ' +
      'session its own connection',
  );
}

/** Who hears an upstream notification on a shared connection. */
function targetsOf(shared: Shared, method: string, params: JsonObject | undefined) {
  const leases = [...shared.leases];
  // A log line is the upstream's, not a session's: written (and relayed) once.
  if (method === 'notifications/message') return leases.slice(0, 1);
  const uri = params?.['uri'];
  if (method === UPDATED && shared.connection.era === 'legacy' && typeof uri === 'string')
    return shared.subscriptions.holdersOf(uri);
  return leases;
}
