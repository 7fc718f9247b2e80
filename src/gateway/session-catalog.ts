import { toCofferError } from '../domain/errors.js';
import type { CapabilityType } from '../domain/capability.js';
import type { Clock, JsonObject } from '../domain/ports.js';
import type { ServerRecord } from '../domain/server-definition.js';
import { AppToolRoutes } from './app-tool-routes.js';
import { capabilityKinds, type CapabilityKind } from './capability-kinds.js';
import { HeldTools } from './held-tools.js';
import { itemByKey } from './list-index.js';
import {
  startList,
  withinListDeadline,
  type ListAttempt,
  type ListLoaderDeps,
  type LoadedList,
} from './list-loader.js';
import { exposeAppLinks } from './mcp-apps.js';
import type { Namespace } from './namespace.js';
import { hiddenFromClient } from './task-only-tools.js';

export interface Route {
  readonly server: ServerRecord;
  readonly key: string;
}

/** A route with what the session's list says of its item (absent fields: not listed). */
export interface ResolvedRoute extends Route {
  /** The user's preference from the list; undefined when the list does not say. */
  readonly enabled: boolean | undefined;
  /** A tool held back for a changed definition (issue 20). */
  readonly held: boolean;
  /** Why the tool's header declaration is refused, when it is. */
  readonly invalid: string | undefined;
  /** The item as listed (a tool's annotations for the approval gate). */
  readonly item: JsonObject | undefined;
}

/** One server's exposed items, and the loaded list they came from. */
export interface ServerItems {
  readonly server: string;
  readonly source: object;
  readonly items: JsonObject[];
}

interface CacheEntry extends ListAttempt {
  readonly expiresAt: number;
}

export interface SessionCatalogDeps extends ListLoaderDeps {
  readonly namespace: Namespace;
  readonly clock: Clock;
  readonly ttlMs: number;
  /**
   * A list that missed the list deadline arrived after all (an upstream slow to start: a
   * first `npx` download): the session tells its client to list again, or it would never
   * see it.
   */
  readonly onLateList?: (server: string, kind: CapabilityKind) => void;
  /** The enabled servers this session serves. */
  readonly servers: () => Promise<readonly ServerRecord[]>;
  /** Whether the client declared `tasks`: only then are task-only tools listed. */
  readonly runsTasks?: () => boolean;
}

/**
 * One session's view of its upstreams' capabilities: live lists cached for a TTL
 * (ADR-004), exposed under the session's namespace, and the map from exposed names
 * back to upstream keys. Routing uses this map, so cut names round-trip.
 */
export class SessionCatalog {
  private readonly cache = new Map<string, CacheEntry>();
  private readonly routes = new Map<string, Route>();
  /** Each loaded list's exposed items, built once per load rather than per listing. */
  private readonly exposedItems = new WeakMap<LoadedList, JsonObject[]>();
  /** The last flat list per kind, reused while every server's list is the same load. */
  private readonly flat = new Map<string, { sources: object[]; items: JsonObject[] }>();
  private readonly appTools = new AppToolRoutes();
  private readonly heldTools = new HeldTools();
  /** Loads whose late arrival is already watched for: it is announced once. */
  private readonly lateAnnounced = new WeakSet<Promise<LoadedList>>();
  /** Loads that have arrived: a warm listing races no deadline (a timer per server). */
  private readonly arrived = new WeakSet<Promise<LoadedList>>();

  constructor(private readonly deps: SessionCatalogDeps) {}

  /** Every enabled item of every enabled server, exposed; failing servers are absent. */
  async list(kind: CapabilityKind): Promise<JsonObject[]> {
    const byServer = await this.listByServer(kind);
    const sources = byServer.map((entry) => entry.source);
    const last = this.flat.get(kind.type);
    if (last !== undefined && sameElements(last.sources, sources)) return last.items;
    const items = byServer.flatMap((entry) => entry.items);
    this.flat.set(kind.type, { sources, items });
    return items;
  }

  /**
   * The same, per server. `source` is the cached upstream list the items come from: the
   * same object until that server's list is reloaded, so the tool index can tell which
   * servers changed without comparing contents.
   */
  async listByServer(kind: CapabilityKind): Promise<ServerItems[]> {
    const servers = await this.deps.servers();
    const lists = await Promise.all(
      servers.map(async (server) => ({
        server,
        list: await this.withinDeadline(server, kind).catch(() => undefined),
      })),
    );
    const result: ServerItems[] = [];
    for (const { server, list } of lists) {
      if (list === undefined) continue;
      result.push({ server: server.name, source: list, items: this.exposedOf(server, kind, list) });
    }
    return result;
  }

  private exposedOf(server: ServerRecord, kind: CapabilityKind, list: LoadedList): JsonObject[] {
    const known = this.exposedItems.get(list);
    if (known !== undefined) return known;
    const exposed: JsonObject[] = [];
    const runsTasks = this.deps.runsTasks?.() === true;
    for (const item of list.items) {
      const key = kind.keyOf(item) ?? '';
      if (list.enabled.get(key) === false || list.held.has(key) || list.invalid?.has(key) === true)
        continue;
      if (hiddenFromClient(kind, item, runsTasks)) continue;
      exposed.push(this.expose(server, kind, item, key));
    }
    this.exposedItems.set(list, exposed);
    return exposed;
  }

  /** Finds the upstream behind an exposed name or URI; undefined when none has it. */
  async resolve(type: CapabilityType, exposed: string): Promise<ResolvedRoute | undefined> {
    const kind = capabilityKinds[type];
    // A miss on a cached list may be a capability the upstream added since: relist once.
    const route =
      this.routes.get(routeKey(type, exposed)) ??
      (await this.discover(kind, exposed, false)) ??
      (await this.discover(kind, exposed, true));
    if (route === undefined) return undefined;
    // A route outlives its list's TTL, but whether a tool is held back, and its
    // annotations for the approval gate, are only known from a list: a tool's is reloaded.
    const cached = this.cached(route.server.name, kind)?.list;
    const list = await (
      cached ?? (kind.type === 'tool' ? this.load(route.server, kind) : undefined)
    )?.catch(() => undefined);
    const item = list === undefined ? undefined : itemByKey(list, kind, route.key);
    // One shape for every call (no spreads): this runs on each relayed request.
    return {
      server: route.server,
      key: route.key,
      enabled: list?.enabled.get(route.key),
      held: this.heldTools.isHeld(route.server.name, route.key, list),
      invalid: list?.invalid?.get(route.key),
      item,
    };
  }

  private async discover(
    kind: CapabilityKind,
    exposed: string,
    fresh: boolean,
  ): Promise<Route | undefined> {
    const parsed = this.deps.namespace.parse(kind.type, exposed);
    const servers = await this.deps.servers();
    const candidates =
      parsed === undefined ? servers : servers.filter((s) => s.name === parsed.server);
    if (fresh) for (const server of candidates) this.cache.delete(cacheKey(server.name, kind.type));
    // The server a name belongs to is waited for while it starts (its connect deadline
    // bounds that): the call is for it. A name no server claims waits no longer than a
    // listing would.
    const failures = await Promise.all(
      candidates.map((server) =>
        (parsed === undefined ? this.withinDeadline(server, kind) : this.load(server, kind)).then(
          () => undefined,
          (error: unknown) => toCofferError(error),
        ),
      ),
    );
    const route =
      this.routes.get(routeKey(kind.type, exposed)) ??
      (kind.type === 'tool' ? this.appTools.route(exposed) : undefined);
    if (route !== undefined) return route;
    // Resources read through a template are never listed: the URI itself routes.
    const server = candidates[0];
    if (kind.type === 'resource' && parsed !== undefined && server !== undefined)
      return { server, key: parsed.key };
    // The named server could not list (unreachable, process limit, failed start): say
    // why, not "unknown". The load just failed (failures are never cached, and the loader
    // has retried what a fresh connection could cure), so relisting would only wait twice.
    const failure = parsed === undefined ? undefined : failures[0];
    if (failure !== undefined) throw failure;
    return undefined;
  }

  /** Drops cached lists: all of them, or one server's. */
  invalidate(server?: string): void {
    if (server === undefined) {
      this.routes.clear();
      this.appTools.forget();
    } else {
      // Relisted on the next miss: a removed or disabled server must not keep app calls.
      this.appTools.forget(server);
    }
    for (const key of [...this.cache.keys()]) {
      if (server === undefined || key.startsWith(`${server}\u0000`)) this.cache.delete(key);
    }
  }

  private load(server: ServerRecord, kind: CapabilityKind): Promise<LoadedList> {
    return this.loading(server, kind).list;
  }

  private loading(server: ServerRecord, kind: CapabilityKind): CacheEntry {
    const existing = this.cached(server.name, kind);
    if (existing !== undefined) return existing;
    const { list: loading, ticket } = startList(this.deps, server, kind);
    const list = loading.then((loaded) => {
      for (const item of loaded.items) this.expose(server, kind, item, kind.keyOf(item) ?? '');
      if (kind.type === 'tool') {
        this.appTools.noteList(server, loaded.items, (item) => kind.keyOf(item) ?? '');
        this.heldTools.noteList(server.name, loaded);
      }
      return loaded;
    });
    const key = cacheKey(server.name, kind.type);
    const entry = { expiresAt: this.deps.clock.now().getTime() + this.deps.ttlMs, list, ticket };
    this.cache.set(key, entry);
    list.then(
      () => this.arrived.add(list),
      () => {
        if (this.cache.get(key)?.list === list) this.cache.delete(key);
      },
    );
    return entry;
  }

  /**
   * A server's list, or its absence once the list deadline passes. Its load goes on; one
   * that arrives late is announced once (onLateList), however many listings gave up on it.
   */
  private withinDeadline(server: ServerRecord, kind: CapabilityKind): Promise<LoadedList> {
    const attempt = this.loading(server, kind);
    const { list } = attempt;
    if (this.arrived.has(list)) return list;
    if (this.lateAnnounced.has(list)) return withinListDeadline(this.deps, server, kind, attempt);
    this.lateAnnounced.add(list);
    return withinListDeadline(this.deps, server, kind, attempt, () =>
      this.deps.onLateList?.(server.name, kind),
    );
  }

  private cached(server: string, kind: CapabilityKind): CacheEntry | undefined {
    const entry = this.cache.get(cacheKey(server, kind.type));
    if (entry === undefined || entry.expiresAt <= this.deps.clock.now().getTime()) return undefined;
    return entry;
  }

  private expose(
    server: ServerRecord,
    kind: CapabilityKind,
    item: JsonObject,
    key: string,
  ): JsonObject {
    const exposed = this.deps.namespace.expose(server.name, kind.type, key);
    this.routes.set(routeKey(kind.type, exposed), { server, key });
    const field =
      kind.type === 'resource' ? 'uri' : kind.type === 'resource_template' ? 'uriTemplate' : 'name';
    const renamed = { ...item, [field]: exposed };
    return kind.type === 'tool'
      ? exposeAppLinks(renamed, server.name, this.deps.namespace)
      : renamed;
  }
}

function sameElements(a: readonly unknown[], b: readonly unknown[]): boolean {
  return a.length === b.length && a.every((value, index) => value === b[index]);
}

const cacheKey = (server: string, type: CapabilityType) => `${server}\u0000${type}`;
const routeKey = (type: CapabilityType, exposed: string) => `${type}\u0000${exposed}`;
