import { EventEmitter } from 'node:events';
import type { DaemonEndpoint, HelloRequest } from '../../../../src/shim/daemon-channel.js';
import { Relay } from '../../../../src/shim/relay.js';
import type { ShimLog } from '../../../../src/shim/shim-log.js';
import type { Timers } from '../../../../src/shim/timers.js';
import { until, type FakeChannelDaemon, type Message } from './fake-channel-daemon.js';

/** Timers that only fire when the test says so. */
export class ManualTimers implements Timers {
  private readonly pending = new Map<number, () => void>();
  private next = 0;

  setTimeout(callback: () => void): unknown {
    this.next += 1;
    this.pending.set(this.next, callback);
    return this.next;
  }

  clearTimeout(handle: unknown): void {
    this.pending.delete(handle as number);
  }

  get count(): number {
    return this.pending.size;
  }

  fireAll(): void {
    const due = [...this.pending.values()];
    this.pending.clear();
    for (const callback of due) callback();
  }
}

/** The shim's log, kept in memory: tests wait on what the relay noticed. */
export class MemoryLog extends EventEmitter implements ShimLog {
  readonly entries: string[] = [];
  readonly debug = (msg: string): void => this.add(msg);
  readonly info = (msg: string): void => this.add(msg);
  readonly warn = (msg: string): void => this.add(msg);
  readonly error = (msg: string): void => this.add(msg);
  readonly close = (): void => undefined;

  /** Resolves once `msg` was logged `times` times. */
  logged(msg: string, times = 1): Promise<true> {
    return until(this, () => this.entries.filter((entry) => entry === msg).length >= times);
  }

  private add(msg: string): void {
    this.entries.push(msg);
    this.emit('change');
  }
}

/** The stdio side: every line the relay wrote to the client, and a way to wait for one. */
export class ClientSide extends EventEmitter {
  readonly lines: string[] = [];
  readonly messages: Message[] = [];

  /** How each line came: an answer the daemon wrote is passed on as its bytes. */
  readonly kinds: ('text' | 'bytes')[] = [];

  readonly write = (written: string | Buffer): void => {
    const line = written.toString();
    this.kinds.push(typeof written === 'string' ? 'text' : 'bytes');
    this.lines.push(line);
    this.messages.push(JSON.parse(line) as Message);
    this.emit('change');
  };

  waitFor(test: (message: Message) => boolean): Promise<Message> {
    return until(this, () => this.messages.find(test));
  }

  response(id: string | number | null): Promise<Message> {
    return this.waitFor((m) => m.id === id && m.method === undefined);
  }
}

export interface Harness {
  readonly relay: Relay;
  readonly client: ClientSide;
  readonly timers: ManualTimers;
  readonly log: MemoryLog;
  /** How many times the relay looked for the daemon. */
  readonly discoveries: () => number;
  readonly send: (message: Message) => void;
  readonly initialize: (params?: Message) => Promise<Message>;
}

export function relayFor(
  fake: FakeChannelDaemon,
  options: { hello?: HelloRequest; discover?: () => Promise<DaemonEndpoint> } = {},
): Harness {
  const client = new ClientSide();
  const timers = new ManualTimers();
  const log = new MemoryLog();
  let discoveries = 0;
  const relay = new Relay({
    write: client.write,
    log,
    timers,
    daemon: {
      discover: () => {
        discoveries += 1;
        return options.discover?.() ?? Promise.resolve(fake.endpoint);
      },
      hello: options.hello ?? {},
    },
  });
  const send = (message: Message): void => relay.fromClient(Buffer.from(JSON.stringify(message)));
  return {
    relay,
    client,
    timers,
    log,
    discoveries: () => discoveries,
    send,
    initialize: async (params = INITIALIZE_PARAMS) => {
      send({ jsonrpc: '2.0', id: 'init', method: 'initialize', params });
      const answer = await client.response('init');
      send({ jsonrpc: '2.0', method: 'notifications/initialized' });
      return answer;
    },
  };
}

export const INITIALIZE_PARAMS = {
  protocolVersion: '2025-11-25',
  capabilities: { sampling: {}, roots: { listChanged: true } },
  clientInfo: { name: 'agent-x', version: '9.9.9' },
};
