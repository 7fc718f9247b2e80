import { performance } from 'node:perf_hooks';
import type { CapabilityType } from '../domain/capability.js';
import { capabilityTypes, listingField } from '../domain/capability.js';
import { CofferError, toCofferError } from '../domain/errors.js';
import type {
  ActivitySink,
  CapabilityCatalog,
  Clock,
  CapabilityListing,
  CapabilityView,
  ConnectionTestResult,
  PreferenceRepository,
  ServerCapabilities,
  ServerRepository,
  ServerStatus,
  JsonObject,
  AdminCaller,
  ToolRun,
  ToolRunner,
  Schedule,
  UpstreamConnection,
  UpstreamConnector,
} from '../domain/ports.js';
import { UpstreamRpcError } from '../domain/ports.js';
import type { ServerRecord } from '../domain/server-definition.js';
import { AdminPeers } from './admin-peers.js';
import { callToolAsAdmin } from './admin-tool-call.js';
import type { SecretGuard } from './secret-guard.js';
import { capabilityKinds } from './capability-kinds.js';
import type { Gateway } from './gateway.js';
import { startList, withinListDeadline, type LoadedList } from './list-loader.js';
import type { ProcessSlots } from './process-slots.js';
import type { ServerStates } from './server-states.js';
import type { ToolPins } from './tool-pins.js';
import { UpstreamPool } from './upstream-pool.js';
import { fetchList } from './upstream-lists.js';

export interface AdminCatalogDeps {
  readonly servers: ServerRepository;
  readonly preferences: PreferenceRepository;
  readonly connector: UpstreamConnector;
  readonly states: ServerStates;
  readonly gateway: Gateway;
  readonly listTimeoutMs: number;
  /** The daemon's per-server process limit, shared with the sessions. */
  readonly processSlots?: ProcessSlots;
  /** Where playground calls are recorded, as the sessions record theirs. */
  readonly activity: ActivitySink;
  readonly clock: Clock;
  /** The pin check of tool lists, as the sessions have it (issue 20). */
  readonly pins?: ToolPins;
  /** The secret guard, for the UI's "Try a tool" (issue 20.3). */
  readonly secretGuard?: SecretGuard;
  /**
   * What the UI listed of `server` is out of date: a list answered "could not load" for
   * missing the list deadline has arrived since (a server slow to start on a busy
   * machine), the upstream said a list changed, or its lists were dropped (a refresh, a
   * sign-in). The daemon tells the UI, which lists again.
   */
  readonly onListsChanged?: (server: string) => void;
  /** Timers of the hold on a server that announces a change at every listing (admin-peers.ts). */
  readonly schedule?: Schedule;
}

/** What a listing held, to tell a relist that found nothing new (admin-peers.ts). */
function fingerprintOf(listings: readonly CapabilityListing[]): string {
  return JSON.stringify(
    listings.map((listing) => [listing.status, listing.items.map((item) => item.definition)]),
  );
}

/**
 * What the API shows of a server's capabilities: live lists over the daemon's own
 * admin connection (with the same evict-and-retry as sessions, ADR-004 update),
 * merged with the stored preferences so vanished or unreachable ones still show.
 */
export class AdminCatalog implements CapabilityCatalog, ToolRunner {
  private readonly pool: UpstreamPool;
  private readonly peers: AdminPeers;

  constructor(private readonly deps: AdminCatalogDeps) {
    this.peers = new AdminPeers({
      onListsChanged: (server) => deps.onListsChanged?.(server),
      ...(deps.schedule === undefined ? {} : { schedule: deps.schedule }),
    });
    this.pool = new UpstreamPool(
      deps.connector,
      (server) => ({ clientCapabilities: {}, peer: this.peers.for(server), sessionId: null }),
      undefined,
      deps.processSlots,
    );
  }

  status(server: string): ServerStatus {
    return this.deps.states.status(server);
  }

  async capabilities(name: string): Promise<ServerCapabilities> {
    const server = await this.record(name);
    // One announcement for the lists that arrive late, however many kinds were late:
    // the UI lists every kind again on it.
    const late = this.lateAnnouncement(server.name);
    const listed = this.peers.listing(server.name);
    let listings: CapabilityListing[] = [];
    try {
      listings = await Promise.all(capabilityTypes.map((type) => this.listing(server, type, late)));
    } finally {
      listed(fingerprintOf(listings));
    }
    const result: Record<string, CapabilityListing> = {};
    capabilityTypes.forEach(
      (type, index) => (result[listingField[type]] = listings[index] as CapabilityListing),
    );
    return result as unknown as ServerCapabilities;
  }

  async testConnection(name: string): Promise<ConnectionTestResult> {
    const server = await this.record(name);
    const started = performance.now();
    // A failure is news of the server as a list's is; a list that began since answers it.
    const ticket = this.deps.states.listing();
    let connection: UpstreamConnection | undefined;
    let release: (() => void) | undefined;
    try {
      release = this.deps.processSlots?.acquire(server);
      const live = await this.deps.connector.connect(server, {
        clientCapabilities: {},
        peer: this.peers.for(server.name),
        sessionId: null,
      });
      connection = live;
      const [tools, prompts, resources, templates] = await Promise.all(
        (['tool', 'prompt', 'resource', 'resource_template'] as const).map((type) =>
          fetchList(live, capabilityKinds[type], this.deps.listTimeoutMs),
        ),
      );
      const counts = {
        tools: tools?.length ?? 0,
        prompts: prompts?.length ?? 0,
        resources: resources?.length ?? 0,
        resource_templates: templates?.length ?? 0,
      };
      // A test that listed is news of the server like any list: `mcp list` shows its counts,
      // an earlier failure is over, and `mcp disable --tool` can check names right after it.
      this.deps.states.listedAll(server.name, counts, this.deps.states.listing());
      return { ok: true, latency_ms: Math.round(performance.now() - started), counts };
    } catch (error) {
      const failure =
        error instanceof UpstreamRpcError
          ? new CofferError('UPSTREAM_UNAVAILABLE', error.message)
          : toCofferError(error);
      // `mcp list` and the UI say "error" with why, not "idle", after a test that failed.
      this.deps.states.failed(server.name, failure, ticket);
      return {
        ok: false,
        latency_ms: Math.round(performance.now() - started),
        error: {
          code: failure.code,
          message: failure.message,
          ...(failure.hint === undefined ? {} : { hint: failure.hint }),
        },
      };
    } finally {
      await connection?.close().catch(() => undefined);
      release?.();
    }
  }

  /** The UI's playground: one tools/call over the admin connection, checked and recorded. */
  async callTool(
    name: string,
    tool: string,
    args: JsonObject,
    caller: AdminCaller,
  ): Promise<ToolRun> {
    const server = await this.record(name);
    return callToolAsAdmin({ ...this.deps, pool: this.pool }, server, tool, args, caller);
  }

  /** The tools listing alone (tool search needs no prompts nor resources). */
  async tools(name: string): Promise<CapabilityListing> {
    const server = await this.record(name);
    return this.listing(server, 'tool', this.lateAnnouncement(server.name));
  }

  async refresh(name: string): Promise<void> {
    this.peers.forget(name);
    await this.pool.evict(name);
    this.deps.gateway.capabilitiesChanged(name);
    this.deps.onListsChanged?.(name);
  }

  async forget(name: string): Promise<void> {
    this.peers.forget(name);
    await this.pool.evict(name);
    this.deps.states.forget(name);
    await this.deps.gateway.serverRedefined(name);
  }

  close(): Promise<void> {
    this.peers.close();
    return this.pool.closeAll();
  }

  /** Says once (deps.onListsChanged) that a list given up on at the deadline has arrived. */
  private lateAnnouncement(server: string): () => void {
    let said = false;
    return () => {
      if (said) return;
      said = true;
      this.deps.onListsChanged?.(server);
    };
  }

  private async listing(
    server: ServerRecord,
    type: CapabilityType,
    onLate: () => void,
  ): Promise<CapabilityListing> {
    let loaded: LoadedList;
    try {
      const deps = { ...this.deps, pool: this.pool };
      const kind = capabilityKinds[type];
      loaded = await withinListDeadline(deps, server, kind, startList(deps, server, kind), onLate);
    } catch (error) {
      const failure = toCofferError(error);
      return {
        status: 'could-not-load',
        error: { code: failure.code, message: failure.message },
        items: await this.known(server.name, type, new Set()),
      };
    }
    const live: CapabilityView[] = loaded.items.map((item) => {
      const key = capabilityKinds[type].keyOf(item) ?? '';
      const view = { key, enabled: loaded.enabled.get(key) ?? true, definition: item };
      return type === 'tool' ? { ...view, held: loaded.held.has(key) } : view;
    });
    const vanished = await this.known(server.name, type, new Set(live.map((view) => view.key)));
    const items = [...live, ...vanished];
    return loaded.supported ? { status: 'ok', items } : { status: 'not-supported', items };
  }

  /**
   * Preferences of keys not in the live list: the user's choices survive upstream churn.
   * Whether such a tool is held back is what the pin records say (no list says it now).
   */
  private async known(
    server: string,
    type: CapabilityType,
    live: Set<string>,
  ): Promise<CapabilityView[]> {
    const preferences = await this.deps.preferences.list(server, type);
    const views = preferences
      .filter((p) => !live.has(p.key))
      .map((p) => ({ key: p.key, enabled: p.enabled, definition: null }));
    if (type !== 'tool' || views.length === 0) return views;
    const waiting = (await this.deps.pins?.waiting(server)) ?? new Set<string>();
    return views.map((view) => ({ ...view, held: waiting.has(view.key) }));
  }

  private async record(name: string): Promise<ServerRecord> {
    const server = await this.deps.servers.get(name);
    if (server === undefined)
      throw new CofferError('SERVER_NOT_FOUND', `No server named "${name}"`, {
        hint: 'see `coffer mcp list`',
        data: { server: name },
      });
    return server;
  }
}
