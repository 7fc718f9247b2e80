import { CofferError } from '../domain/errors.js';
import type { PausableReader } from '../domain/read-hold.js';
import { readClientLine } from './client-line.js';
import { InFlight } from './in-flight.js';
import { DaemonLink, type LinkOptions, type Replay } from './daemon-link.js';
import type { DaemonMessage } from './daemon-message.js';
import {
  daemonError,
  errorResponse,
  idKey,
  invalidInput,
  isJsonObject,
  isJsonRpcId,
  kindOf,
  requestId,
  type JsonRpcId,
  type JsonRpcMessage,
  SHIM_ERROR_CODE,
  type RpcErrorBody,
} from './json-rpc.js';
import type { ShimLog } from './shim-log.js';
import type { Timers } from './timers.js';

/**
 * The relay between one stdio client and the daemon, line for line and verbatim. While
 * the channel is open a client line goes straight out; otherwise it waits in the backlog,
 * in order, until a channel is (re)opened. Every client request ends with exactly one
 * response: the daemon's, or an error from here when the daemon cannot give one.
 */

export interface RelayOptions {
  /** Writes one line (a JSON-RPC message, without its newline) to the client. */
  readonly write: (line: string | Buffer) => void;
  readonly log: ShimLog;
  readonly timers: Timers;
  readonly daemon: Pick<LinkOptions, 'discover' | 'hello' | 'helloTimeoutMs' | 'output'>;
}

const LIST_CHANGED_KINDS = ['tools', 'prompts', 'resources'] as const;
const LOST = 'the connection to the Coffer daemon was lost';

interface Queued {
  readonly message: JsonRpcMessage;
  readonly raw: string;
}

export class Relay {
  private readonly link: DaemonLink;
  private readonly backlog: Queued[] = [];
  private connecting = false;
  private readonly inFlight = new InFlight();
  private initializeId: JsonRpcId | undefined;
  /** The client's initialize params, replayed on every later channel. */
  private initializeParams: unknown;
  /** What the daemon answered the client's initialize with: what it said may change. */
  private capabilities: JsonRpcMessage | undefined;
  private clientInitialized = false;
  private idleWaiters: Array<() => void> = [];

  constructor(private readonly options: RelayOptions) {
    this.link = new DaemonLink({
      ...options.daemon,
      log: options.log,
      timers: options.timers,
      events: {
        onMessage: (message, generation) => this.fromDaemon(message, generation),
        onLost: (generation, reason) => this.lost(generation, reason),
      },
    });
  }

  /** Opens the channel before the client's first line, while the client starts up. */
  start(): void {
    this.reconnect(true);
  }

  /** One line of the client's stdin, as its bytes: read as the daemon reads a line. */
  fromClient(line: Uint8Array): void {
    for (const item of readClientLine(line)) {
      if (item.ok) this.accept(item.message, item.raw);
      else this.reply(item.id, item.error);
    }
  }

  /** Call after each chunk of stdin: it waits while the daemon is not taking lines. */
  holdWhileFull(stdin: PausableReader): void {
    this.link.holdWhileFull(stdin);
  }

  /**
   * Ends the daemon session. With a grace period (stdin ended: the client said all it
   * had to say, as `printf … | coffer shim` does), lines already read still go out and
   * answers already asked for still come back, within that bound.
   */
  async close(graceMs: number): Promise<void> {
    if (graceMs > 0 && !this.isIdle()) {
      const { timers } = this.options;
      await new Promise<void>((resolve) => {
        const timer = timers.setTimeout(resolve, graceMs);
        this.idleWaiters.push(() => {
          timers.clearTimeout(timer);
          resolve();
        });
      });
    }
    this.link.close();
  }

  private accept(message: JsonRpcMessage, raw: string): void {
    const live = this.link.live;
    if (!this.worthSending(message, live)) return;
    const id = requestId(message);
    if (id !== undefined && this.waitingFor(id)) return this.reply(id, idInUse(id));
    if (message['method'] === 'initialize' && id !== undefined) {
      this.initializeId = id;
      this.initializeParams = message['params'];
    }
    // Set before sending: if this line is lost with the daemon, a replay still sends it.
    if (message['method'] === 'notifications/initialized') this.clientInitialized = true;
    // A cancelled request gets no answer (MCP): nothing to wait for at stdin EOF.
    if (message['method'] === 'notifications/cancelled') this.cancelled(message['params']);
    if (live !== undefined && this.backlog.length === 0 && this.send({ message, raw }, live))
      return;
    this.backlog.push({ message, raw });
    this.reconnect();
  }

  /**
   * Answers are matched to requests by id alone: with two requests of one id out, the
   * first answer would end both and the second be dropped, leaving the client waiting.
   */
  private waitingFor(id: JsonRpcId): boolean {
    if (this.inFlight.has(id)) return true;
    const key = idKey(id);
    return this.backlog.some((queued) => {
      const queuedId = requestId(queued.message);
      return queuedId !== undefined && idKey(queuedId) === key;
    });
  }

  private cancelled(params: unknown): void {
    const id = isJsonObject(params) ? params['requestId'] : undefined;
    if (!isJsonRpcId(id)) return;
    this.inFlight.forget(id);
    queueMicrotask(() => this.checkIdle());
  }

  /**
   * An answer belongs to the channel that asked, and a cancellation to the channel its
   * request went to: with that channel gone, neither means anything to a new daemon.
   */
  private worthSending(message: JsonRpcMessage, live: number | undefined): boolean {
    const id = message['id'];
    if (kindOf(message) === 'response' && isJsonRpcId(id)) {
      if (this.inFlight.answerIsLive(id, live)) return true;
      this.options.log.info('answer to a request of a lost daemon session dropped');
      return false;
    }
    return message['method'] !== 'notifications/cancelled' || live !== undefined;
  }

  private send(queued: Queued, generation: number): boolean {
    const id = requestId(queued.message);
    if (id !== undefined) this.inFlight.sent(id, generation);
    if (this.link.send(queued.raw)) return true;
    if (id !== undefined) this.inFlight.forget(id);
    return false;
  }

  /**
   * Opens a channel unless one is opening, then sends the backlog on it, in order. A
   * failed attempt fails the lines it was made for; lines that came meanwhile get an
   * attempt of their own (the user may have fixed things), except after the first one,
   * made before the client said anything.
   */
  private reconnect(early = false): void {
    if (this.connecting) return;
    this.connecting = true;
    const attempted = early ? Number.POSITIVE_INFINITY : this.backlog.length;
    const replay = this.replayFor(this.backlog);
    this.link.connect(replay).then(
      (generation) => {
        this.connecting = false;
        if (replay !== undefined) this.announceListChanges();
        this.flush(generation);
      },
      (error: unknown) => {
        this.connecting = false;
        this.options.log.error('no daemon channel', { err: error });
        this.failBacklog(this.backlog.splice(0, attempted), error);
        if (this.backlog.length > 0) this.reconnect();
        else this.checkIdle();
      },
    );
  }

  /**
   * The client's handshake, to replay on a new channel: its initialize once sent (answered
   * or not), unless the first line waiting is a new initialize of its own.
   */
  private replayFor(backlog: readonly Queued[]): Replay | undefined {
    if (this.initializeParams === undefined) return undefined;
    if (backlog[0]?.message['method'] === 'initialize') return undefined;
    const pendingInitialized = backlog.some(
      (queued) => queued.message['method'] === 'notifications/initialized',
    );
    return {
      initializeParams: this.initializeParams,
      initialized: this.clientInitialized && !pendingInitialized,
    };
  }

  private flush(generation: number): void {
    while (this.backlog.length > 0) {
      if (!this.send(this.backlog[0]!, generation)) return this.reconnect();
      this.backlog.shift();
    }
    this.checkIdle();
  }

  private failBacklog(lines: readonly Queued[], error: unknown): void {
    const body = unavailable(error);
    for (const { message } of lines) {
      const id = requestId(message);
      if (id !== undefined) this.reply(id, body);
    }
  }

  private fromDaemon(from: DaemonMessage, generation: number): void {
    const { kind, id } = from;
    if (kind === 'response' && isJsonRpcId(id)) {
      // Only the first answer counts: a late one after a shim-made error is dropped.
      if (!this.inFlight.answered(id, generation)) return;
      if (id === this.initializeId) this.adoptCapabilities(from.message);
    } else if (kind === 'request' && isJsonRpcId(id)) {
      this.inFlight.asked(id, generation);
    }
    this.options.write(from.raw);
    if (kind === 'response') this.checkIdle();
  }

  /** Channel `generation` is gone: its requests fail now instead of hanging. */
  private lost(generation: number, reason: string): void {
    const body = daemonError(`Coffer daemon: ${LOST} (${reason})`, 'the request may not have run');
    for (const id of this.inFlight.lost(generation)) this.reply(id, body);
    this.checkIdle();
  }

  private adoptCapabilities(message: JsonRpcMessage): void {
    this.initializeId = undefined;
    const result = message['result'];
    if (!isJsonObject(result)) return;
    if (isJsonObject(result['capabilities'])) this.capabilities = result['capabilities'];
  }

  /** After a replayed handshake the daemon's lists may differ: say so, as declared. */
  private announceListChanges(): void {
    for (const kind of LIST_CHANGED_KINDS) {
      const declared = this.capabilities?.[kind];
      if (isJsonObject(declared) && declared['listChanged'] === true) {
        this.options.write(
          JSON.stringify({ jsonrpc: '2.0', method: `notifications/${kind}/list_changed` }),
        );
      }
    }
  }

  private isIdle(): boolean {
    return this.inFlight.size === 0 && this.backlog.length === 0 && !this.connecting;
  }

  private checkIdle(): void {
    if (this.idleWaiters.length === 0 || !this.isIdle()) return;
    for (const wake of this.idleWaiters.splice(0)) wake();
  }

  private reply(id: JsonRpcId | null, error: RpcErrorBody): void {
    this.options.write(errorResponse(id, error));
  }
}

/**
 * No daemon to talk to: keep discovery's code and hint, so the agent's user reads what to
 * do (e.g. PORT_RANGE_EXHAUSTED: set COFFER_PORT_RANGE).
 */
function unavailable(error: unknown): RpcErrorBody {
  const text = error instanceof Error ? error.message : String(error);
  const message = `Coffer daemon unavailable: ${text}`;
  return error instanceof CofferError
    ? daemonError(message, error.hint, error.code)
    : daemonError(message);
}

function idInUse(id: JsonRpcId): RpcErrorBody {
  return invalidInput(
    SHIM_ERROR_CODE.invalidRequest,
    `Invalid Request: id ${JSON.stringify(id)} is already in use by a request in flight`,
    'give each request an id of its own; reuse one only once its answer has come',
  );
}
