import { connect, type Socket } from 'node:net';
import { CofferError, isErrorCode } from '../domain/errors.js';
import { LineReader } from '../domain/line-reader.js';
import { holdWhileFull, type DrainableWriter, type PausableReader } from '../domain/read-hold.js';
import type { Timers } from './timers.js';

/**
 * One connection to the daemon's local socket (Unix domain socket or Windows named pipe),
 * carrying newline-delimited JSON-RPC both ways (the shim-channel contract): a hello line
 * and its answer, then every line is one message of one downstream MCP session. A lost
 * connection is a lost session; a new one is a new channel.
 */

/** Where the daemon's shim channel listens, as discovery found it. */
export interface DaemonEndpoint {
  readonly pid: number;
  readonly socket: string;
  readonly token: string;
}

/** What the hello asks for besides the token. */
export interface HelloRequest {
  /** `lean` or `full`; absent: the daemon's COFFER_TOOLS_MODE. */
  readonly mode?: 'lean' | 'full';
}

export interface ChannelEvents {
  /** One line from the daemon after `ready`, without its newline, as the bytes that came. */
  onLine(line: Buffer): void;
  /** The connection ended (daemon stopped or died, or `close` was called). */
  onClose(reason: string): void;
  /** Reading from the daemon began to wait for the client to read what it was given. */
  onHeld(): void;
}

export interface ChannelOptions {
  readonly timers: Timers;
  /** From the connect to the daemon's answer to the hello. */
  readonly helloTimeoutMs: number;
  /** Where the daemon's lines go (the client's stdout): reading waits while it is full. */
  readonly output?: DrainableWriter;
}

export const CHANNEL_VERSION = 1;

export class DaemonChannel {
  private ended = false;

  constructor(private readonly socket: Socket) {}

  get isOpen(): boolean {
    return !this.ended && !this.socket.destroyed;
  }

  /** Writes one message; false when the connection is already gone. */
  send(line: string): boolean {
    if (!this.isOpen) return false;
    this.socket.write(`${line}\n`);
    return true;
  }

  /** Pauses `reader` (the client's stdin) while the daemon is not taking what it is sent. */
  holdWhileFull(reader: PausableReader): boolean {
    return this.isOpen && holdWhileFull(reader, this.socket);
  }

  /** Ends the connection: for the daemon, the session is over. */
  close(): void {
    this.ended = true;
    this.socket.end();
    // A daemon that never reads its end must not keep the shim alive.
    this.socket.unref();
  }
}

/** Connects, says hello and resolves once the daemon answered `ready`. */
export function openChannel(
  endpoint: DaemonEndpoint,
  hello: HelloRequest,
  events: ChannelEvents,
  options: ChannelOptions,
): Promise<DaemonChannel> {
  return new Promise((resolve, reject) => {
    const socket = connect(endpoint.socket);
    const channel = new DaemonChannel(socket);
    let ready = false;
    let settled = false;
    const fail = (error: CofferError): void => {
      if (settled) return;
      settled = true;
      options.timers.clearTimeout(timer);
      socket.destroy();
      reject(error);
    };
    const timer = options.timers.setTimeout(
      () => fail(unavailable(`no answer to the hello within ${options.helloTimeoutMs} ms`)),
      options.helloTimeoutMs,
    );
    const reader = new LineReader({
      onBytes: (line) => {
        if (ready) return events.onLine(line);
        const answer = readHelloAnswer(line.toString());
        if (answer !== 'ready') return fail(answer);
        ready = true;
        settled = true;
        options.timers.clearTimeout(timer);
        resolve(channel);
      },
      onOverflow: () => undefined,
    });
    const { output } = options;
    socket.on('data', (chunk: Buffer) => {
      reader.push(chunk);
      if (output !== undefined && holdWhileFull(socket, output)) events.onHeld();
    });
    socket.once('connect', () => {
      const line = { coffer: 'hello', version: CHANNEL_VERSION, token: endpoint.token, ...hello };
      socket.write(`${JSON.stringify(line)}\n`);
    });
    let problem = 'the Coffer daemon closed the connection';
    socket.on('error', (error: NodeJS.ErrnoException) => {
      problem = `the connection to the Coffer daemon failed (${error.code ?? error.message})`;
    });
    socket.once('close', () => {
      fail(unavailable(`${problem} before it was ready`));
      if (ready) events.onClose(problem);
    });
  });
}

/** `ready`, or the error a `refused` (or anything unexpected) stands for. */
function readHelloAnswer(line: string): 'ready' | CofferError {
  let answer: unknown;
  try {
    answer = JSON.parse(line);
  } catch {
    return unavailable('the Coffer daemon answered the hello with something that is not JSON');
  }
  const fields = (answer ?? {}) as Record<string, unknown>;
  if (fields['coffer'] === 'ready' && fields['version'] === CHANNEL_VERSION) return 'ready';
  if (fields['coffer'] !== 'refused') {
    return unavailable('the Coffer daemon answered the hello with something unexpected');
  }
  const code = isErrorCode(fields['code']) ? fields['code'] : 'DAEMON_UNAVAILABLE';
  const message = typeof fields['message'] === 'string' ? fields['message'] : 'refused';
  const hint = typeof fields['hint'] === 'string' ? fields['hint'] : undefined;
  return new CofferError(
    code,
    `The Coffer daemon refused the shim: ${message}`,
    hint === undefined ? {} : { hint },
  );
}

function unavailable(message: string): CofferError {
  return new CofferError('DAEMON_UNAVAILABLE', message.charAt(0).toUpperCase() + message.slice(1));
}
