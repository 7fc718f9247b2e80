import { CofferError, toCofferError } from '../domain/errors.js';
import type { JsonObject, PreferenceRepository, UpstreamConnection } from '../domain/ports.js';
import { UpstreamRpcError } from '../domain/ports.js';
import type { ServerRecord } from '../domain/server-definition.js';
import type { CapabilityKind } from './capability-kinds.js';
import { isHopeless, isMethodNotFound } from './connection-failures.js';
import type { ServerStates } from './server-states.js';
import type { ToolPins } from './tool-pins.js';
import type { UpstreamPool } from './upstream-pool.js';
import { fetchList } from './upstream-lists.js';
import { invalidHeaderTools } from './header-exclusions.js';

export interface LoadedList {
  /** The upstream's items, verbatim. */
  readonly items: readonly JsonObject[];
  readonly enabled: ReadonlyMap<string, boolean>;
  /** Tools whose definition changed since the user allowed it: not listed, calls refused. */
  readonly held: ReadonlySet<string>;
  /** Tools excluded for an invalid x-mcp-header, with why (header-exclusions.ts). */
  readonly invalid?: ReadonlyMap<string, string>;
  /** false when the upstream does not offer this kind of capability at all. */
  readonly supported: boolean;
}

export interface ListLoaderDeps {
  readonly pool: UpstreamPool;
  readonly preferences: PreferenceRepository;
  readonly states: ServerStates;
  /** Bounds each list request, and how long a list may hold up a listing (withinListDeadline). */
  readonly listTimeoutMs: number;
  /** The pin check of tool lists (issue 20); absent: no tool is pinned nor held back. */
  readonly pins?: ToolPins;
}

/**
 * Loads one live list from one upstream and reconciles preferences (ADR-004). It waits
 * for the upstream's start, which the connector bounds by COFFER_CONNECT_TIMEOUT_MS; each
 * list request is bounded by the list deadline. A failure on a reused connection evicts
 * it and retries once on a fresh one (ADR-004 update): a list has no side effects, so the
 * retry is safe. A stale HTTP session (404) is one such failure: the fresh connection
 * re-initializes. Still failing: UPSTREAM_UNAVAILABLE.
 */
export async function loadList(
  deps: ListLoaderDeps,
  server: ServerRecord,
  kind: CapabilityKind,
  /** The attempt's place among list attempts (ServerStates.listing), taken here if not given. */
  ticket = deps.states.listing(),
): Promise<LoadedList> {
  let items: JsonObject[] | undefined;
  let used: Used = {};
  try {
    items = await fetchOnce(deps, server, kind, used);
  } catch (error) {
    if (isHopeless(error)) throw noteFailure(deps, server, error, ticket);
    // Only the connection that failed: a concurrent list may already have made a fresh
    // one. A connect that failed left the pool by itself.
    if (used.connection !== undefined) await deps.pool.evict(server.name, used.connection);
    try {
      used = {};
      items = await fetchOnce(deps, server, kind, used);
    } catch (retryError) {
      throw noteFailure(deps, server, retryError, ticket);
    }
  }
  if (items === undefined)
    return { items: [], enabled: new Map(), held: NONE_HELD, supported: false };
  const keys = items.map((item) => kind.keyOf(item) ?? '');
  const enabled = await deps.preferences.reconcile(
    server.name,
    kind.type,
    keys,
    server.auto_enable_new_capabilities,
  );
  const held =
    kind.type === 'tool' && deps.pins !== undefined
      ? await deps.pins.check(
          server.name,
          items.map((item, index) => ({ key: keys[index] ?? '', item })),
          enabled,
        )
      : NONE_HELD;
  deps.states.listed(server.name, kind.type, items.length, ticket);
  const invalid =
    kind.type === 'tool' && used.connection !== undefined
      ? invalidHeaderTools(server, used.connection, items, kind.keyOf)
      : undefined;
  return {
    items,
    enabled,
    held,
    supported: true,
    ...(invalid !== undefined && invalid.size > 0 ? { invalid } : {}),
  };
}

const NONE_HELD: ReadonlySet<string> = new Set();

/** A list attempt under way, with its ticket (ServerStates.listing). */
export interface ListAttempt {
  readonly list: Promise<LoadedList>;
  readonly ticket: number;
}

/** Starts a loadList under a ticket of its own, kept with it for a deadline it may miss. */
export function startList(
  deps: ListLoaderDeps,
  server: ServerRecord,
  kind: CapabilityKind,
): ListAttempt {
  const ticket = deps.states.listing();
  return { list: loadList(deps, server, kind, ticket), ticket };
}

/**
 * The attempt's list, or UPSTREAM_TIMEOUT once the list deadline passes, so a listing
 * answers with the servers that are ready instead of waiting for one still starting; the
 * miss is the server's last error meanwhile, unless a list begun after it has succeeded
 * (the attempt's ticket says). The load goes on: `onLate` hears when it arrives after all.
 */
export async function withinListDeadline(
  deps: Pick<ListLoaderDeps, 'listTimeoutMs' | 'states'>,
  server: ServerRecord,
  kind: CapabilityKind,
  { list, ticket }: ListAttempt,
  onLate?: () => void,
): Promise<LoadedList> {
  let timer: NodeJS.Timeout | undefined;
  let late = false;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      late = true;
      const missed = new CofferError(
        'UPSTREAM_TIMEOUT',
        `Upstream "${server.name}" did not list its ${kind.field} in time`,
        { data: { server: server.name } },
      );
      deps.states.failed(server.name, missed, ticket);
      reject(missed);
    }, deps.listTimeoutMs);
  });
  list.then(
    () => {
      if (late) onLate?.();
    },
    () => undefined,
  );
  try {
    return await Promise.race([list, deadline]);
  } finally {
    clearTimeout(timer);
  }
}

/** The connection one attempt used, so a failure evicts that one and no other. */
interface Used {
  connection?: UpstreamConnection;
}

async function fetchOnce(
  deps: ListLoaderDeps,
  server: ServerRecord,
  kind: CapabilityKind,
  used: Used,
): Promise<JsonObject[] | undefined> {
  const pending = deps.pool.get(server);
  if (deps.pool.isConnecting(server.name)) deps.states.starting(server.name, pending);
  const connection = await pending;
  used.connection = connection;
  try {
    return await fetchList(connection, kind, deps.listTimeoutMs);
  } catch (error) {
    if (isMethodNotFound(error)) return [];
    throw error;
  }
}

function noteFailure(
  deps: ListLoaderDeps,
  server: ServerRecord,
  error: unknown,
  ticket: number,
): CofferError {
  const failure =
    error instanceof CofferError
      ? error
      : error instanceof UpstreamRpcError
        ? new CofferError(
            'UPSTREAM_UNAVAILABLE',
            `Upstream "${server.name}" failed to list: ${error.message}`,
            {
              data: { server: server.name },
            },
          )
        : toCofferError(error);
  deps.states.failed(server.name, failure, ticket);
  return failure;
}
