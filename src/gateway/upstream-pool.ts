import type { ServerDefinition } from '../domain/server-definition.js';
import type {
  UpstreamConnectContext,
  UpstreamConnection,
  UpstreamConnector,
} from '../domain/ports.js';
import type { ProcessSlots } from './process-slots.js';

export interface PoolHooks {
  /** `protocolVersion`: the MCP revision the connection speaks, when it says. */
  readonly connected: (server: string, connection: UpstreamConnection) => void;
  /**
   * `crashed`: the connection ended on its own (the process exited, the socket died), told
   * by one session only for a shared connection. `lost`: it ended without this pool
   * closing it, so what this session held on it (subscriptions) is gone too.
   */
  /** `local`: the server is a process of Coffer's (stdio), not a remote one. */
  readonly disconnected: (server: string, crashed: boolean, lost: boolean, local: boolean) => void;
  /** How long to wait before reconnecting a server that has been crashing. */
  readonly backoffMs?: (server: string) => number;
}

/**
 * A session's lazy connections, one per upstream server (ADR-005; a 2026-07-28 upstream's
 * is a lease on one connection shared by every session). Concurrent first
 * uses share one connect; a connection that closes or fails is dropped so the next use
 * makes a fresh one.
 */
export class UpstreamPool {
  private readonly connections = new Map<string, Promise<UpstreamConnection>>();
  private closing = false;
  /** Connects still in progress, so closing the pool can cut their handshake short. */
  private readonly connecting = new Map<string, AbortController>();
  /** Connections this pool closed itself: their end is not a crash. */
  private readonly closedByUs = new WeakSet<UpstreamConnection>();

  constructor(
    private readonly connector: UpstreamConnector,
    private readonly contextFor: (server: string) => UpstreamConnectContext,
    private readonly hooks: PoolHooks = { connected: () => {}, disconnected: () => {} },
    /** Shared by every pool of the daemon: the per-server process limit. */
    private readonly slots?: ProcessSlots,
  ) {}

  get(definition: ServerDefinition): Promise<UpstreamConnection> {
    // A closed pool starts nothing: a list retrying after closeAll aborted its connect
    // would spawn a process nobody closes (it lived until the connect deadline).
    if (this.closing) return Promise.reject(new Error('session closed'));
    const existing = this.connections.get(definition.name);
    if (existing !== undefined) return existing;
    const pending = this.open(definition);
    this.connections.set(definition.name, pending);
    pending.catch(() => {
      if (this.connections.get(definition.name) === pending)
        this.connections.delete(definition.name);
    });
    return pending;
  }

  /** Drops a connection (broken, or its definition changed) and closes it. */
  async evict(server: string, connection?: UpstreamConnection): Promise<void> {
    const pending = this.connections.get(server);
    if (pending === undefined) return;
    if (connection === undefined) this.connecting.get(server)?.abort();
    const current = await pending.catch(() => undefined);
    if (connection !== undefined && current !== connection) return;
    if (this.connections.get(server) === pending) this.connections.delete(server);
    if (current !== undefined) this.closedByUs.add(current);
    await current?.close();
  }

  /** True while a connect to `server` is in progress (spawning, handshaking, backing off). */
  isConnecting(server: string): boolean {
    return this.connecting.has(server);
  }

  servers(): string[] {
    return [...this.connections.keys()];
  }

  /** The connections that are up now (pending or failed ones are skipped). */
  async live(): Promise<UpstreamConnection[]> {
    const settled = await Promise.allSettled(this.connections.values());
    return settled.flatMap((result) => (result.status === 'fulfilled' ? [result.value] : []));
  }

  async closeAll(): Promise<void> {
    this.closing = true;
    for (const controller of this.connecting.values()) controller.abort();
    const pending = [...this.connections.values()];
    this.connections.clear();
    await Promise.allSettled(
      pending.map(async (pendingConnection) => {
        const connection = await pendingConnection;
        this.closedByUs.add(connection);
        await connection.close();
      }),
    );
  }

  private async open(definition: ServerDefinition): Promise<UpstreamConnection> {
    const controller = new AbortController();
    this.connecting.set(definition.name, controller);
    try {
      await backoff(this.hooks.backoffMs?.(definition.name) ?? 0, controller.signal);
      const release = this.slots?.acquire(definition) ?? (() => undefined);
      let connection: UpstreamConnection;
      try {
        connection = await this.connector.connect(definition, {
          ...this.contextFor(definition.name),
          signal: controller.signal,
        });
      } catch (error) {
        release();
        throw error;
      }
      // A shared connection (2026-07-28, or marked shared) is no process of this session's.
      if (connection.shared === true) release();
      else void connection.closed.then(release);
      if (this.closing) {
        await connection.close();
        throw new Error('session closed');
      }
      this.hooks.connected(definition.name, connection);
      void connection.closed.then(() => {
        const lost = !this.closedByUs.has(connection) && !this.closing;
        const crashed = lost && (connection.shared !== true || connection.reportsEnd === true);
        this.hooks.disconnected(definition.name, crashed, lost, definition.transport === 'stdio');
        this.forget(definition.name, connection);
      });
      return connection;
    } finally {
      if (this.connecting.get(definition.name) === controller)
        this.connecting.delete(definition.name);
    }
  }

  private forget(server: string, connection: UpstreamConnection): void {
    const pending = this.connections.get(server);
    if (pending === undefined) return;
    void pending.then(
      (current) => {
        if (current === connection && this.connections.get(server) === pending)
          this.connections.delete(server);
      },
      () => undefined,
    );
  }
}

/** Waits before a reconnect; a closing session does not wait. */
function backoff(ms: number, signal: AbortSignal): Promise<void> {
  if (ms <= 0 || signal.aborted) return Promise.resolve();
  return new Promise((resolve) => {
    const timer = setTimeout(resolve, ms);
    signal.addEventListener('abort', () => {
      clearTimeout(timer);
      resolve();
    });
  });
}
