import { CofferError } from '../domain/errors.js';
import {
  openChannel,
  type DaemonChannel,
  type DaemonEndpoint,
  type HelloRequest,
} from './daemon-channel.js';
import type { DrainableWriter, PausableReader } from '../domain/read-hold.js';
import { DaemonMessage } from './daemon-message.js';
import { isJsonObject, type JsonRpcMessage } from './json-rpc.js';
import type { ShimLog } from './shim-log.js';
import type { Timers } from './timers.js';

/**
 * The shim's one link to the daemon, kept across daemon deaths and restarts. The first
 * channel carries the client's own handshake as is; a later one (after a loss) is
 * re-initialized here with the client's original initialize params and
 * `notifications/initialized`, so the client never sees a second handshake.
 */

export interface LinkEvents {
  /** A message from the daemon on channel `generation`. */
  onMessage(message: DaemonMessage, generation: number): void;
  /** Channel `generation` is gone: what was in flight on it will get no answer. */
  onLost(generation: number, reason: string): void;
}

export interface LinkOptions {
  /** Finds the daemon, starting it if needed (lock-serialised across processes). */
  readonly discover: () => Promise<DaemonEndpoint>;
  readonly hello: HelloRequest;
  readonly events: LinkEvents;
  readonly log: ShimLog;
  readonly timers: Timers;
  /** The hello's answer; also the bound for the replayed initialize's answer (×6). */
  readonly helloTimeoutMs?: number;
  /** The client's stdout: the daemon's lines are read no faster than the client reads. */
  readonly output?: DrainableWriter;
}

export interface Replay {
  /** The params of the client's initialize, which a daemon answered. */
  readonly initializeParams: unknown;
  /** The client sent `notifications/initialized`. */
  readonly initialized: boolean;
}

interface OwnAnswer {
  readonly id: string;
  readonly generation: number;
  /** With the answer, or without when none will come. */
  readonly settle: (message?: JsonRpcMessage) => void;
}

const HELLO_TIMEOUT_MS = 10_000;
/** A daemon that stopped or is stopping may refuse once: look again, once. */
const RETRIED: ReadonlySet<string> = new Set(['DAEMON_UNAVAILABLE', 'UNAUTHORIZED']);

export class DaemonLink {
  private channel: DaemonChannel | undefined;
  private generation = 0;
  private closed = false;
  private ownAnswer: OwnAnswer | undefined;
  /** Each direction's first hold is logged: a slow side is worth one line, not thousands. */
  private readonly heldSaid = { client: false, daemon: false };

  constructor(private readonly options: LinkOptions) {}

  /** The generation of the open channel, if any. */
  get live(): number | undefined {
    return this.channel?.isOpen === true ? this.generation : undefined;
  }

  /** Sends one line on the open channel; false when there is none. */
  send(line: string): boolean {
    return this.live !== undefined && this.channel!.send(line);
  }

  /**
   * Call after handing the client's lines to `send`: while the daemon is not taking them
   * (its session is itself waiting for the client to read), the client's stdin waits.
   */
  holdWhileFull(reader: PausableReader): void {
    if (this.live !== undefined && this.channel!.holdWhileFull(reader))
      this.saidOnce(
        'daemon',
        "the daemon is taking the client's lines slower than they come; reading stdin waits for it",
      );
  }

  /**
   * Opens a new channel (discovery may start the daemon), and replays the client's
   * handshake on it when `replay` holds one. Resolves with its generation.
   */
  async connect(replay: Replay | undefined): Promise<number> {
    for (let attempt = 1; ; attempt += 1) {
      try {
        return await this.open(replay);
      } catch (error) {
        const retry = attempt === 1 && error instanceof CofferError && RETRIED.has(error.code);
        if (!retry || this.closed) throw error;
        this.options.log.info('daemon channel refused, looking again', { err: error });
      }
    }
  }

  /** Ends the channel: the daemon ends the session and closes its upstreams. */
  close(): void {
    this.closed = true;
    const channel = this.channel;
    this.channel = undefined;
    channel?.close();
  }

  private async open(replay: Replay | undefined): Promise<number> {
    if (this.closed) throw shuttingDown();
    const endpoint = await this.options.discover();
    const generation = (this.generation += 1);
    const channel = await openChannel(
      endpoint,
      this.options.hello,
      {
        onLine: (line) => this.fromDaemon(line, generation),
        onClose: (reason) => this.lost(generation, reason),
        onHeld: () =>
          this.saidOnce(
            'client',
            "the client is reading its stdout slower than the daemon's lines come; reading the daemon waits for it",
          ),
      },
      {
        timers: this.options.timers,
        helloTimeoutMs: this.helloTimeoutMs,
        ...(this.options.output === undefined ? {} : { output: this.options.output }),
      },
    );
    try {
      if (replay !== undefined) await this.replay(channel, generation, replay);
      if (this.closed) throw shuttingDown();
    } catch (error) {
      channel.close();
      throw error;
    }
    this.channel = channel;
    this.options.log.info(
      replay === undefined ? 'daemon channel open' : 'daemon channel re-established',
      {
        generation,
        daemon_pid: endpoint.pid,
      },
    );
    return generation;
  }

  private get helloTimeoutMs(): number {
    return this.options.helloTimeoutMs ?? HELLO_TIMEOUT_MS;
  }

  private async replay(channel: DaemonChannel, generation: number, replay: Replay): Promise<void> {
    const id = `coffer-shim-${process.pid}-${generation}-initialize`;
    const answer = await this.ask(channel, generation, {
      jsonrpc: '2.0',
      id,
      method: 'initialize',
      params: replay.initializeParams,
    });
    if (!isJsonObject(answer['result'])) {
      const error = answer['error'];
      const message = isJsonObject(error) ? String(error['message']) : 'no result';
      throw new CofferError(
        'DAEMON_UNAVAILABLE',
        `The Coffer daemon refused to re-initialize the session: ${message}`,
      );
    }
    if (replay.initialized) {
      channel.send(JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }));
    }
  }

  /** Sends a request of the shim's own; its answer never reaches the client. */
  private ask(
    channel: DaemonChannel,
    generation: number,
    request: JsonRpcMessage & { id: string },
  ): Promise<JsonRpcMessage> {
    const { timers } = this.options;
    const { id } = request;
    const timeoutMs = this.helloTimeoutMs * 6;
    return new Promise((resolve, reject) => {
      const timer = timers.setTimeout(() => this.ownAnswer?.settle(), timeoutMs);
      this.ownAnswer = {
        id,
        generation,
        settle: (message) => {
          timers.clearTimeout(timer);
          this.ownAnswer = undefined;
          if (message !== undefined) return resolve(message);
          reject(
            new CofferError(
              'DAEMON_UNAVAILABLE',
              `No answer to the replayed ${String(request['method'])}`,
            ),
          );
        },
      };
      channel.send(JSON.stringify(request));
    });
  }

  private fromDaemon(line: Buffer, generation: number): void {
    const answer = DaemonMessage.answer(line);
    const own = this.ownAnswer;
    if (answer !== undefined && (own === undefined || answer.id !== own.id))
      return this.options.events.onMessage(answer, generation);
    let parsed: unknown;
    try {
      parsed = JSON.parse(line.toString());
    } catch {
      this.options.log.warn('daemon sent a line that is not JSON', { bytes: line.length });
      return;
    }
    const messages = Array.isArray(parsed) ? (parsed as unknown[]) : [parsed];
    for (const message of messages) {
      if (!isJsonObject(message)) continue;
      if (own !== undefined && message['id'] === own.id && !('method' in message)) {
        own.settle(message);
        continue;
      }
      const raw = Array.isArray(parsed) ? JSON.stringify(message) : line;
      this.options.events.onMessage(DaemonMessage.parsed(message, raw), generation);
    }
  }

  private saidOnce(side: 'client' | 'daemon', message: string): void {
    if (this.heldSaid[side]) return;
    this.heldSaid[side] = true;
    this.options.log.info(`${message} (said once)`);
  }

  /** Also for a channel already replaced: what was sent on it still needs its failure. */
  private lost(generation: number, reason: string): void {
    if (this.ownAnswer?.generation === generation) this.ownAnswer.settle();
    if (this.closed) return;
    if (this.generation === generation) this.channel = undefined;
    this.options.log.info('daemon channel lost', { generation, reason });
    this.options.events.onLost(generation, reason);
  }
}

function shuttingDown(): CofferError {
  return new CofferError('DAEMON_UNAVAILABLE', 'The shim is shutting down');
}
