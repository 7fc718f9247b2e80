import { CofferError } from '../domain/errors.js';
import type { DaemonSession, SessionEvents } from './daemon-session.js';
import {
  SHIM_ERROR_CODE,
  daemonError,
  errorResponse,
  idKey,
  isJsonObject,
  isJsonRpcId,
  kindOf,
  requestId,
  type JsonRpcId,
  type JsonRpcMessage,
  type RpcErrorBody,
} from './json-rpc.js';
import { SessionKeeper, adoptProtocolVersion, type KeeperOptions } from './session-keeper.js';
import type { ShimLog } from './shim-log.js';

/**
 * The relay between one stdio client and the daemon, message by message and verbatim.
 * Client messages go out one at a time, each once the previous one's response headers
 * are in: the daemon dispatches a message before it answers the headers, so the client's
 * order (initialize, initialized, a request, its cancellation) is the order it is
 * handled in. Every client request ends with exactly one response: the daemon's, or an
 * error from here when the daemon cannot give one.
 */

export interface RelayOptions {
  /** Writes one line (a JSON-RPC message, without its newline) to the client. */
  readonly write: (line: string) => void;
  readonly log: ShimLog;
  readonly daemon: Pick<KeeperOptions, 'discover' | 'agent' | 'path'>;
}

const LIST_CHANGED_KINDS = ['tools', 'prompts', 'resources'] as const;

export class Relay implements SessionEvents {
  private queue: Promise<void> = Promise.resolve();
  /** Client requests awaiting a response, by id, with the session generation they went to. */
  private readonly pending = new Map<string, number>();
  /** Daemon→client requests awaiting the client's answer, with their session generation. */
  private readonly serverRequests = new Map<string, number>();
  private initializeId: JsonRpcId | undefined;
  /** What the client was told at initialize: re-established sessions honour it. */
  private serverCapabilities: JsonRpcMessage | undefined;
  private readonly keeper: SessionKeeper;

  constructor(private readonly options: RelayOptions) {
    this.keeper = new SessionKeeper({
      ...options.daemon,
      log: options.log,
      events: this,
      onReestablished: () => this.onReestablished(),
    });
  }

  /** One line from the client's stdin. */
  fromClient(line: string): void {
    let parsed: unknown;
    try {
      parsed = JSON.parse(line);
    } catch {
      this.reply(null, { code: SHIM_ERROR_CODE.parseError, message: 'Parse error' });
      return;
    }
    if (!Array.isArray(parsed)) return this.accept(parsed, line);
    // JSON-RPC batches left MCP in 2025-06-18; older clients get them relayed one by one.
    if (parsed.length === 0) this.reply(null, invalidRequest());
    for (const item of parsed as unknown[]) this.accept(item, JSON.stringify(item));
  }

  /**
   * Ends the daemon session. With a grace period (stdin ended: the client said all it
   * had to say, as `printf … | coffer shim` does), messages already read still go out
   * and answers already asked for still come back, within that bound; then DELETE.
   */
  async close(graceMs: number): Promise<void> {
    const deadline = Date.now() + graceMs;
    const timeLeft = (): number => deadline - Date.now();
    await new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, Math.max(0, timeLeft()));
      void this.queue.then(() => {
        clearTimeout(timer);
        resolve();
      });
    });
    while (this.pending.size > 0 && timeLeft() > 0) await sleep(Math.min(20, timeLeft()));
    await this.keeper.close();
  }

  onMessage(message: JsonRpcMessage, raw: string, session: DaemonSession): void {
    const kind = kindOf(message);
    const id = message['id'];
    if (kind === 'response' && isJsonRpcId(id)) {
      // Only the first answer counts: a late one after a shim-made error is dropped.
      if (this.pending.get(idKey(id)) !== session.generation) return;
      this.pending.delete(idKey(id));
      if (id === this.initializeId) this.adoptInitializeResult(message, session);
    } else if (kind === 'request' && isJsonRpcId(id)) {
      this.serverRequests.set(idKey(id), session.generation);
    }
    this.options.write(raw);
  }

  onStreamEnd(ids: readonly JsonRpcId[], problem: string, session: DaemonSession): void {
    for (const id of ids) {
      if (this.pending.get(idKey(id)) === session.generation) {
        this.options.log.warn('request failed: no answer from the daemon', { problem });
        this.fail([id], daemonError(`Coffer daemon: ${problem}`, 'the request may not have run'));
      }
    }
  }

  /** After a transparent re-initialization the daemon's lists may differ: say so. */
  private onReestablished(): void {
    for (const kind of LIST_CHANGED_KINDS) {
      const declared = this.serverCapabilities?.[kind];
      if (isJsonObject(declared) && declared['listChanged'] === true) {
        this.options.write(
          JSON.stringify({ jsonrpc: '2.0', method: `notifications/${kind}/list_changed` }),
        );
      }
    }
  }

  private accept(message: unknown, body: string): void {
    if (!isJsonObject(message) || kindOf(message) === 'invalid') {
      const id = isJsonObject(message) && isJsonRpcId(message['id']) ? message['id'] : null;
      this.reply(id, invalidRequest());
      return;
    }
    this.queue = this.queue
      .then(() => this.dispatch(message, body))
      .catch((error: unknown) => this.options.log.error('relay failed', { err: error }));
  }

  private async dispatch(message: JsonRpcMessage, body: string): Promise<void> {
    const { keeper } = this;
    const { log } = this.options;
    if (kindOf(message) === 'response' && !this.isLiveAnswer(message)) {
      log.info('answer to a request of a lost daemon session dropped');
      return;
    }
    const id = requestId(message);
    const ids = id === undefined ? [] : [id];
    const isInitialize = message['method'] === 'initialize' && id !== undefined;
    if (isInitialize) {
      keeper.initializeParams = message['params'];
      this.initializeId = id;
    }
    // Set before sending: if this POST is lost with the daemon, a re-initialized session
    // must still send it.
    if (message['method'] === 'notifications/initialized') keeper.clientInitialized = true;
    for (let attempt = 1; ; attempt += 1) {
      let session: DaemonSession;
      try {
        session = await keeper.acquire(isInitialize);
      } catch (error) {
        log.error('no daemon session', { err: error });
        return this.fail(ids, unavailable(error));
      }
      for (const each of ids) this.pending.set(idKey(each), session.generation);
      const outcome = await session.post(body, ids);
      if (outcome.kind === 'sent') return this.sent(message, session);
      if (outcome.kind === 'rejected') return this.fail(ids, outcome.error);
      if (outcome.kind === 'stale') keeper.discard(session, outcome.reason);
      // An answer belongs to the session that asked: a new session never asked it.
      if (outcome.kind === 'stale' && ids.length === 0 && kindOf(message) === 'response') return;
      // A stale session saw nothing of the message: one more try on a fresh session.
      if (outcome.kind === 'stale' && attempt === 1) continue;
      return this.fail(ids, daemonError(`Coffer daemon: ${outcome.reason}`));
    }
  }

  private sent(message: JsonRpcMessage, session: DaemonSession): void {
    if (message['method'] === 'notifications/initialized') session.openGetStream();
  }

  /** A client's answer to a daemon request, unless that request's session is gone. */
  private isLiveAnswer(message: JsonRpcMessage): boolean {
    const id = message['id'];
    if (!isJsonRpcId(id)) return true;
    const generation = this.serverRequests.get(idKey(id));
    this.serverRequests.delete(idKey(id));
    return generation === undefined || generation === this.keeper.liveGeneration;
  }

  private adoptInitializeResult(message: JsonRpcMessage, session: DaemonSession): void {
    this.initializeId = undefined;
    const result = message['result'];
    if (!isJsonObject(result)) return;
    adoptProtocolVersion(session, result);
    const capabilities = result['capabilities'];
    if (isJsonObject(capabilities)) this.serverCapabilities = capabilities;
  }

  private fail(ids: readonly JsonRpcId[], error: RpcErrorBody): void {
    for (const id of ids) {
      this.pending.delete(idKey(id));
      this.reply(id, error);
    }
  }

  private reply(id: JsonRpcId | null, error: RpcErrorBody): void {
    this.options.write(errorResponse(id, error));
  }
}

function invalidRequest(): RpcErrorBody {
  return { code: SHIM_ERROR_CODE.invalidRequest, message: 'Invalid Request' };
}

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * No daemon to talk to: keep discovery's code and hint, so the agent's user reads what to
 * do (e.g. PORT_RANGE_EXHAUSTED: set COFFER_PORT_RANGE).
 */
function unavailable(error: unknown): RpcErrorBody {
  const message = `Coffer daemon unavailable: ${errorText(error)}`;
  return error instanceof CofferError
    ? daemonError(message, error.hint, error.code)
    : daemonError(message);
}

function errorText(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
