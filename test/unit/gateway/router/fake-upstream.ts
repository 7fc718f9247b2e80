import type {
  JsonObject,
  UpstreamConnectContext,
  UpstreamConnection,
  UpstreamConnector,
  UpstreamRequestOptions,
} from '../../../../src/domain/ports.js';
import type { ServerDefinition } from '../../../../src/domain/server-definition.js';

export interface UpstreamCall {
  readonly method: string;
  readonly params: JsonObject | undefined;
  readonly options: UpstreamRequestOptions | undefined;
}

/** How a fake upstream answers one method; unset methods answer `{}`. */
export type Script = Record<
  string,
  (
    params: JsonObject | undefined,
    options: UpstreamRequestOptions | undefined,
  ) => Promise<JsonObject> | JsonObject
>;

/** One connection to a fake upstream: scripted answers, recorded requests, closable. */
export class FakeUpstream implements UpstreamConnection {
  readonly calls: UpstreamCall[] = [];
  readonly notified: string[] = [];
  readonly closed: Promise<void>;
  private end!: () => void;

  constructor(
    readonly server: string,
    readonly context: UpstreamConnectContext,
    private readonly script: Script,
    readonly serverCapabilities: JsonObject = { tools: { listChanged: true } },
    private readonly said: () => string | undefined = () => undefined,
  ) {
    this.closed = new Promise((resolve) => (this.end = resolve));
  }

  /** What the server said about its use: its connector's `said`, read when asked. */
  get instructions(): string | undefined {
    return this.said();
  }

  async request(
    method: string,
    params?: JsonObject,
    options?: UpstreamRequestOptions,
  ): Promise<JsonObject> {
    this.calls.push({ method, params, options });
    return (await this.script[method]?.(params, options)) ?? {};
  }

  notify(method: string): Promise<void> {
    this.notified.push(method);
    return Promise.resolve();
  }

  /** The upstream went away (crash, restart): the pool drops this connection. */
  close(): Promise<void> {
    this.end();
    return Promise.resolve();
  }

  calledWith(method: string): UpstreamCall[] {
    return this.calls.filter((call) => call.method === method);
  }
}

/** Connects every server to a new FakeUpstream with the server's script. */
export class FakeConnector implements UpstreamConnector {
  readonly connections: FakeUpstream[] = [];
  /** What each server says about its use at its handshake; none by default. */
  readonly said: Record<string, string> = {};

  constructor(
    private readonly scripts: Record<string, Script>,
    /** What each server declares at initialize (default: tools with listChanged). */
    private readonly capabilities: Record<string, JsonObject> = {},
  ) {}

  connect(definition: ServerDefinition, context: UpstreamConnectContext): Promise<FakeUpstream> {
    const upstream = new FakeUpstream(
      definition.name,
      context,
      this.scripts[definition.name] ?? {},
      this.capabilities[definition.name],
      () => this.said[definition.name],
    );
    this.connections.push(upstream);
    return Promise.resolve(upstream);
  }

  /** The live connection to `server` (the latest one made). */
  latest(server: string): FakeUpstream {
    const found = this.connections.filter((c) => c.server === server).at(-1);
    if (found === undefined) throw new Error(`no connection to ${server}`);
    return found;
  }
}
