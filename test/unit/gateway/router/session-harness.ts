import type { CapabilityType } from '../../../../src/domain/capability.js';
import type {
  ActivityEntry,
  JsonObject,
  PreferenceRepository,
} from '../../../../src/domain/ports.js';
import type { GatewayContext } from '../../../../src/gateway/gateway-context.js';
import { ServerStates } from '../../../../src/gateway/server-states.js';
import { Session, type SessionScope } from '../../../../src/gateway/session.js';
import { silentLogger } from '../../../../src/observability/logger.js';
import { FakeConnector, type Script } from './fake-upstream.js';
import { FakeTransport } from './fake-transport.js';
import { fakeServer } from '../gateway-fakes.js';

/** A clock tests move by hand. */
export class ManualClock {
  private ms = Date.parse('2026-12-04T08:00:00Z');
  now(): Date {
    return new Date(this.ms);
  }
  advance(ms: number): void {
    this.ms += ms;
  }
}

/** Preferences in memory: everything enabled unless `disable`d. */
export class MemoryPreferences {
  private readonly disabled = new Set<string>();
  disable(server: string, type: CapabilityType, key: string): void {
    this.disabled.add(`${server}/${type}/${key}`);
  }
  readonly port = {
    reconcile: (server: string, type: CapabilityType, keys: readonly string[]) =>
      Promise.resolve(
        new Map(keys.map((key) => [key, !this.disabled.has(`${server}/${type}/${key}`)])),
      ),
    isEnabled: (server: string, type: CapabilityType, key: string) =>
      Promise.resolve(!this.disabled.has(`${server}/${type}/${key}`)),
  } as unknown as PreferenceRepository;
}

export interface Harness {
  readonly session: Session;
  readonly client: FakeTransport;
  readonly upstreams: FakeConnector;
  readonly clock: ManualClock;
  readonly preferences: MemoryPreferences;
  readonly activity: ActivityEntry[];
  /** initialize + notifications/initialized, as a client starts. */
  readonly initialize: (capabilities?: JsonObject) => Promise<JsonObject>;
}

/**
 * One session over fakes: its servers are `scripts`' keys, each a scripted upstream;
 * `settings` adds to the gateway context (e.g. a result limit), `capabilities` says what
 * each upstream declares.
 */
export async function startSession(
  scripts: Record<string, Script>,
  scope: SessionScope = { kind: 'aggregated' },
  settings: Partial<GatewayContext> = {},
  /** What each server declares at initialize (default: tools with listChanged). */
  capabilities: Record<string, JsonObject> = {},
): Promise<Harness> {
  const { context, clock, upstreams, preferences, activity } = fakeGatewayContext(
    scripts,
    settings,
    capabilities,
  );
  const client = new FakeTransport();
  const session = new Session({
    scope,
    context,
    clientCapabilities: {},
    transport: () => client,
    onInitialized: () => undefined,
    onClosed: () => undefined,
  });
  await session.start();
  const initialize = async (capabilities: JsonObject = {}) => {
    const answer = await client.request('init', 'initialize', {
      protocolVersion: '2025-06-18',
      capabilities,
      clientInfo: { name: 'unit-client', version: '1.2.3' },
    });
    client.receive({ method: 'notifications/initialized' });
    return answer['result'] as JsonObject;
  };
  return { session, client, upstreams, clock, preferences, activity, initialize };
}

/** A gateway context over fakes: `scripts`' keys are the enabled servers. */
export function fakeGatewayContext(
  scripts: Record<string, Script>,
  settings: Partial<GatewayContext> = {},
  /** What each server declares (default: tools with listChanged). */
  capabilities: Record<string, JsonObject> = {},
): {
  context: GatewayContext;
  clock: ManualClock;
  upstreams: FakeConnector;
  preferences: MemoryPreferences;
  activity: ActivityEntry[];
} {
  const clock = new ManualClock();
  const upstreams = new FakeConnector(scripts, capabilities);
  const preferences = new MemoryPreferences();
  const activity: ActivityEntry[] = [];
  const servers = Object.keys(scripts).map(fakeServer);
  const context: GatewayContext = {
    serverInfo: { name: 'coffer', version: '0.0.0-test' },
    connector: upstreams,
    preferences: preferences.port,
    activity: { record: (entry) => activity.push(entry) },
    states: new ServerStates(clock),
    clock,
    logger: silentLogger(),
    listTtlMs: 60_000,
    listTimeoutMs: 60_000,
    enabledServers: (only) =>
      Promise.resolve(servers.filter((s) => only === undefined || s.name === only)),
    upstreamLog: () => undefined,
    logFailure: () => undefined,
    ...settings,
  };
  return { context, clock, upstreams, preferences, activity };
}
