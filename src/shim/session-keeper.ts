import type { Agent } from 'node:http';
import type { DaemonEndpoint } from './daemon-http.js';
import { DaemonSession, type SessionEvents } from './daemon-session.js';
import { isJsonObject, type JsonRpcMessage } from './json-rpc.js';
import type { ShimLog } from './shim-log.js';

/**
 * Keeps the shim's one daemon session alive across daemon deaths and restarts. The
 * first session is the client's own handshake, relayed as is; every later one is
 * re-initialized here with the client's original initialize params, so the client never
 * notices (its answer is swallowed, `notifications/initialized` follows).
 */

export interface KeeperOptions {
  /** Finds the daemon, spawning it if needed (lock-serialised across processes). */
  readonly discover: () => Promise<DaemonEndpoint>;
  readonly agent: Agent;
  readonly path: string;
  readonly events: SessionEvents;
  readonly log: ShimLog;
  /** A new session replaced a lost one, transparently. */
  readonly onReestablished: (session: DaemonSession) => void;
}

export class SessionKeeper {
  /** The params of the client's initialize, kept to re-initialize after a daemon restart. */
  initializeParams: unknown;
  /** The client sent notifications/initialized: a re-initialized session sends it too. */
  clientInitialized = false;
  private current: DaemonSession | undefined;
  private establishing: Promise<DaemonSession> | undefined;
  private generation = 0;
  private closed = false;

  constructor(private readonly options: KeeperOptions) {}

  /** The generation of the live session, if any: answers from older ones are dropped. */
  get liveGeneration(): number | undefined {
    return this.current?.isClosed === false ? this.current.generation : undefined;
  }

  /**
   * The session to send on. Without a live one, a new session is made; it is
   * re-initialized unless the message about to go out is the client's own initialize.
   */
  acquire(forInitialize: boolean): Promise<DaemonSession> {
    if (this.closed) return Promise.reject(new Error('the shim is shutting down'));
    if (this.current !== undefined && !this.current.isClosed) return Promise.resolve(this.current);
    this.establishing ??= this.establish(!forInitialize).finally(() => {
      this.establishing = undefined;
    });
    return this.establishing;
  }

  /** `session` turned out gone (daemon dead or restarted, session reaped). */
  discard(session: DaemonSession, reason: string): void {
    this.options.log.info('daemon session lost', {
      reason,
      generation: session.generation,
      session_id: session.sessionId,
      daemon_pid: session.endpoint.pid,
    });
    session.abandon();
    if (this.current === session) this.current = undefined;
  }

  /** Ends the live session on the daemon (DELETE). */
  async close(): Promise<void> {
    this.closed = true;
    const session = this.current;
    this.current = undefined;
    if (session === undefined) return;
    const status = await session.terminate();
    this.options.log.info('daemon session ended', {
      session_id: session.sessionId,
      delete_status: status ?? null,
    });
  }

  private async establish(reinitialize: boolean): Promise<DaemonSession> {
    const endpoint = await this.options.discover();
    const session = new DaemonSession(endpoint, (this.generation += 1), this.options);
    const again = reinitialize && this.initializeParams !== undefined;
    if (again) {
      await this.reinitialize(session).catch((error: unknown) => {
        session.abandon();
        throw error;
      });
    }
    if (this.closed) {
      // The client left while this session was being made: end it now, not by reaping.
      await session.terminate();
      throw new Error('the shim is shutting down');
    }
    this.options.log.info(again ? 'daemon session re-established' : 'daemon session opened', {
      generation: session.generation,
      session_id: session.sessionId,
      daemon_pid: endpoint.pid,
    });
    this.current = session;
    if (again) this.options.onReestablished(session);
    return session;
  }

  private async reinitialize(session: DaemonSession): Promise<void> {
    const answer = await session.request('initialize', this.initializeParams);
    const result = answer['result'];
    if (!isJsonObject(result)) {
      const error = answer['error'];
      const message = isJsonObject(error) ? String(error['message']) : 'no result';
      throw new Error(`the daemon refused to re-initialize: ${message}`);
    }
    adoptProtocolVersion(session, result);
    if (!this.clientInitialized) return;
    const outcome = await session.post(
      JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }),
      [],
    );
    if (outcome.kind !== 'sent') throw new Error(`notifications/initialized: ${outcome.kind}`);
    session.openGetStream();
  }
}

/** Later requests must carry the negotiated version (`mcp-protocol-version`). */
export function adoptProtocolVersion(session: DaemonSession, result: JsonRpcMessage): void {
  const version = result['protocolVersion'];
  if (typeof version === 'string') session.protocolVersion = version;
}
