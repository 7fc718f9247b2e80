import type { CapabilityType } from '../domain/capability.js';
import { disabledCode, toggleFlag } from '../domain/capability.js';
import { CofferError } from '../domain/errors.js';
import type {
  ActivitySink,
  Clock,
  JsonObject,
  PreferenceRepository,
  UpstreamRequestOptions,
} from '../domain/ports.js';
import { UpstreamRpcError } from '../domain/ports.js';
import { currentTrace, traceparent } from '../observability/trace-context.js';
import type { ServerRecord } from '../domain/server-definition.js';
import { kindByListMethod } from './capability-kinds.js';
import { pageOf } from './list-paging.js';
import { breaksConnection, wasNotDelivered } from './connection-failures.js';
import type { InflightRequests } from './inflight-requests.js';
import type { Namespace } from './namespace.js';
import { exposeResultUris } from './result-uris.js';
import type { ListingCatalog } from './lean-mode.js';
import type { Route } from './session-catalog.js';
import type { UpstreamPool } from './upstream-pool.js';

/** Who is calling, for the activity log. */
export interface Caller {
  readonly session_id: string | null;
  readonly client_name: string | null;
  readonly client_version: string | null;
}

/** Options of one routed request: the upstream options plus the downstream request id. */
export type RoutedRequestOptions = UpstreamRequestOptions & {
  readonly requestId?: string | number;
};

export interface RouterDeps {
  readonly inflight: InflightRequests;
  readonly activity: ActivitySink;
  readonly clock: Clock;
  readonly caller: () => Caller;
  readonly catalog: ListingCatalog;
  readonly pool: UpstreamPool;
  readonly preferences: PreferenceRepository;
  readonly namespace: Namespace;
}

/** Where a routed request goes: which param names the target, and its type. */
const targets: Readonly<Record<string, { type: CapabilityType; field: 'name' | 'uri' }>> = {
  'tools/call': { type: 'tool', field: 'name' },
  'prompts/get': { type: 'prompt', field: 'name' },
  'resources/read': { type: 'resource', field: 'uri' },
  'resources/subscribe': { type: 'resource', field: 'uri' },
  'resources/unsubscribe': { type: 'resource', field: 'uri' },
};

/**
 * Answers one client request of a session: lists are aggregated from the catalog,
 * everything else is routed to the one upstream that owns the target, with the
 * preference checked on the way (the call path is the boundary, not the list).
 */
export class RequestRouter {
  constructor(private readonly deps: RouterDeps) {}

  handles(method: string): boolean {
    // Own keys only: a method named `constructor` or `__proto__` is not a route.
    return (
      kindByListMethod.has(method) ||
      Object.hasOwn(targets, method) ||
      method === 'completion/complete'
    );
  }

  async handle(
    method: string,
    params: JsonObject | undefined,
    options: RoutedRequestOptions,
  ): Promise<JsonObject> {
    const kind = kindByListMethod.get(method);
    if (kind !== undefined) return pageOf(kind.field, await this.deps.catalog.list(kind), params);
    if (method === 'completion/complete') return this.complete(params ?? {}, options);
    const target = Object.hasOwn(targets, method) ? targets[method] : undefined;
    if (target === undefined)
      throw new CofferError('INVALID_INPUT', `Method not routed: ${method}`);
    const exposed = params?.[target.field];
    if (typeof exposed !== 'string')
      throw new CofferError('INVALID_INPUT', `${method} needs a string "${target.field}"`);
    const started = this.deps.clock.now().getTime();
    let audited: { server: string | null; key: string } = { server: null, key: exposed };
    try {
      const route = await this.route(target.type, exposed);
      audited = { server: route.server.name, key: route.key };
      const result = await this.forward(
        route.server,
        method,
        withTraceparent({ ...params, [target.field]: route.key }),
        options,
      );
      this.audit(method, target.type, audited, started, undefined);
      return method === 'resources/read'
        ? this.exposeContents(result, route.server.name)
        : exposeResultUris(result, route.server.name, this.deps.namespace);
    } catch (error) {
      this.audit(method, target.type, audited, started, error);
      throw error;
    }
  }

  /** Calls, gets and reads are recorded; subscriptions and lists are not. */
  private audit(
    method: string,
    type: CapabilityType,
    target: { server: string | null; key: string },
    started: number,
    error: unknown,
  ): void {
    if (!AUDITED.has(method)) return;
    const now = this.deps.clock.now();
    this.deps.activity.record({
      at: now.toISOString(),
      trace_id: currentTrace()?.traceId ?? null,
      ...this.deps.caller(),
      server: target.server,
      capability_type: type,
      capability_key: target.key,
      action: method,
      duration_ms: now.getTime() - started,
      outcome: error === undefined ? 'ok' : 'error',
      error_code: error === undefined ? null : errorCodeOf(error),
    });
  }

  private async route(type: CapabilityType, exposed: string): Promise<Route> {
    const found = await this.deps.catalog.resolve(type, exposed);
    if (found === undefined) {
      throw new CofferError('CAPABILITY_NOT_FOUND', `Unknown ${label(type)} "${exposed}"`, {
        hint: 'list them again: the upstream may have changed, be disabled or be unreachable',
      });
    }
    const enabled =
      found.enabled ?? (await this.deps.preferences.isEnabled(found.server.name, type, found.key));
    if (enabled === false) {
      throw new CofferError(
        disabledCode[type],
        `${capitalised(label(type))} "${exposed}" is disabled`,
        {
          hint: `enable it with \`coffer mcp enable ${found.server.name} ${toggleFlag[type]} ${found.key}\``,
          data: { server: found.server.name },
        },
      );
    }
    return found;
  }

  private async complete(params: JsonObject, options: RoutedRequestOptions): Promise<JsonObject> {
    const ref = params['ref'];
    if (ref === null || typeof ref !== 'object')
      throw new CofferError('INVALID_INPUT', 'completion/complete needs a "ref"');
    const refObject = ref as JsonObject;
    const isPrompt = refObject['type'] === 'ref/prompt';
    const field = isPrompt ? 'name' : 'uri';
    const exposed = refObject[field];
    if (typeof exposed !== 'string')
      throw new CofferError('INVALID_INPUT', `completion ref needs a string "${field}"`);
    const type: CapabilityType = isPrompt ? 'prompt' : 'resource_template';
    const route = isPrompt ? await this.route(type, exposed) : await this.routeTemplate(exposed);
    return this.forward(
      route.server,
      'completion/complete',
      { ...params, ref: { ...refObject, [field]: route.key } },
      options,
    );
  }

  private async routeTemplate(exposed: string): Promise<Route> {
    const found = await this.deps.catalog.resolve('resource_template', exposed);
    if (found !== undefined) return found;
    return this.route('resource', exposed);
  }

  private async forward(
    server: ServerRecord,
    method: string,
    params: JsonObject,
    options: RoutedRequestOptions,
  ): Promise<JsonObject> {
    const end =
      options.requestId === undefined
        ? undefined
        : this.deps.inflight.begin(server.name, options.requestId);
    try {
      return await this.send(server, method, params, options, true);
    } finally {
      end?.();
    }
  }

  /**
   * One attempt on the session's connection. A broken connection is dropped so the next
   * request gets a fresh one (ADR-004 update). The request is sent again only when the
   * upstream refused it unread (a 404 for a session it forgot), and only once: any other
   * failure may have reached the upstream, and a call is never replayed silently.
   */
  private async send(
    server: ServerRecord,
    method: string,
    params: JsonObject,
    options: RoutedRequestOptions,
    mayResend: boolean,
  ): Promise<JsonObject> {
    const connection = await this.deps.pool.get(server);
    try {
      return await connection.request(method, params, upstreamOptionsOf(options));
    } catch (error) {
      if (!breaksConnection(error)) throw error;
      await this.deps.pool.evict(server.name, connection);
      if (!mayResend || !wasNotDelivered(error) || options.signal?.aborted === true) throw error;
      return this.send(server, method, params, options, false);
    }
  }

  private exposeContents(result: JsonObject, server: string): JsonObject {
    const contents = result['contents'];
    if (!Array.isArray(contents)) return result;
    return {
      ...result,
      contents: contents.map((item: unknown) =>
        item !== null && typeof item === 'object' && typeof (item as JsonObject)['uri'] === 'string'
          ? {
              ...item,
              uri: this.deps.namespace.expose(
                server,
                'resource',
                (item as JsonObject)['uri'] as string,
              ),
            }
          : item,
      ),
    };
  }
}

/** W3C trace context travels to the upstream in `_meta.traceparent`. */
function withTraceparent(params: JsonObject): JsonObject {
  const trace = currentTrace();
  if (trace === undefined) return params;
  const meta = params['_meta'];
  const base = meta !== null && typeof meta === 'object' ? (meta as JsonObject) : {};
  return { ...params, _meta: { ...base, traceparent: traceparent(trace) } };
}

/** The upstream sees the signal, timeout and progress, not the downstream id. */
function upstreamOptionsOf(options: RoutedRequestOptions): UpstreamRequestOptions {
  const { signal, timeoutMs, onProgress } = options;
  return {
    ...(signal === undefined ? {} : { signal }),
    ...(timeoutMs === undefined ? {} : { timeoutMs }),
    ...(onProgress === undefined ? {} : { onProgress }),
  };
}

const AUDITED = new Set(['tools/call', 'prompts/get', 'resources/read']);

/** The activity log's error code: Coffer's own, or the upstream's JSON-RPC code. */
function errorCodeOf(error: unknown): string {
  if (error instanceof CofferError) return error.code;
  if (error instanceof UpstreamRpcError) return `RPC_${error.code}`;
  return 'INTERNAL';
}

function label(type: CapabilityType): string {
  return type === 'resource_template' ? 'resource template' : type;
}

function capitalised(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}
