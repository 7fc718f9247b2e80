import type { CapabilityType } from '../domain/capability.js';
import { CofferError } from '../domain/errors.js';
import type { JsonObject } from '../domain/ports.js';
import type { GuardEvent } from '../domain/secret-refusals.js';
import { traceparent, type TraceContext } from '../observability/trace-context.js';
import type { ApprovalGate } from './approval-gate.js';
import type { AuditTarget, CallAudit } from './call-audit.js';
import type { CapabilityRoutes } from './capability-routes.js';
import type { Namespace } from './namespace.js';
import type { OversizedResults } from './oversized-results.js';
import { exposeItemUris, exposeResultUris } from './result-uris.js';
import { exposeSkillResult } from './skill-results.js';
import type { GuardedResult, SecretGuard } from './secret-guard.js';
import type { RoutedRequestOptions, UpstreamForward } from './upstream-forward.js';

type Exposer = (result: JsonObject, server: string, namespace: Namespace) => JsonObject;

/**
 * Where a relayed result names resources, per method (tool and prompt content otherwise):
 * each URI is exposed, so the client reads it back through Coffer.
 */
const exposers: ReadonlyMap<string, Exposer> = new Map([
  ['resources/read', exposeItemUris('contents')],
  ['skills/get', exposeSkillResult],
  ['resources/directory/read', exposeItemUris('resources')],
]);

/** What a targeted method names, and in which param. */
export interface Target {
  readonly type: CapabilityType;
  readonly field: 'name' | 'uri';
}

export interface TargetRelayDeps {
  readonly routes: CapabilityRoutes;
  readonly upstream: UpstreamForward;
  readonly audit: CallAudit;
  readonly namespace: Namespace;
  /** Approval before tools/call (issue 20); absent: every enabled tool runs. */
  readonly approval?: ApprovalGate;
  /** The secret guard (issue 20.3); absent: params and results pass unscanned. */
  readonly guard?: SecretGuard;
}

/**
 * The relay of a request aimed at one capability (tools/call, prompts/get,
 * resources/read, subscriptions, completion): find the owner, check the preference,
 * guard the params (no other server's secret leaves), ask approval, rename to the
 * upstream's key, forward the params otherwise untouched, redact stored secrets and
 * expose the URIs in the result, and write the activity row, refused calls included.
 */
export class TargetRelay {
  constructor(private readonly deps: TargetRelayDeps) {}

  async relay(
    method: string,
    target: Target,
    params: JsonObject | undefined,
    options: RoutedRequestOptions,
  ): Promise<JsonObject> {
    const exposed = params?.[target.field];
    if (typeof exposed !== 'string')
      throw new CofferError('INVALID_INPUT', `${method} needs a string "${target.field}"`);
    const started = this.deps.audit.started();
    const { trace, caller } = options;
    const audit = { method, type: target.type, started, trace, caller };
    let audited: AuditTarget = { server: null, key: exposed };
    let events: GuardEvent[] = [];
    try {
      const route = await this.deps.routes.route(target.type, exposed);
      audited = { server: route.server.name, key: route.key };
      // Before approval: nobody is asked about a call that would be refused anyway.
      events = (await this.deps.guard?.checkOutgoing(route.server.name, params)) ?? [];
      if (method === 'tools/call')
        await this.deps.approval?.check({
          server: route.server.name,
          key: route.key,
          tool: route.item,
          arguments: params?.['arguments'],
          signal: options.signal,
          requestId: options.requestId,
        });
      const renamed = forwardedParams(params, target.field, route.key, trace);
      const answered = await this.deps.upstream.forward(route.server, method, renamed, options);
      const { result, events: redacted } = await this.redact(answered);
      const toolFailed = result['isError'] === true;
      const guarded = [...events, ...redacted];
      this.deps.audit.record({ ...audit, target: audited, guarded, toolFailed });
      const expose = exposers.get(method) ?? exposeResultUris;
      return expose(result, route.server.name, this.deps.namespace);
    } catch (error) {
      const at = refusedAt(audited, error, this.deps.namespace, target.type);
      this.deps.audit.record({ ...audit, target: at, error, guarded: events });
      throw error;
    }
  }

  /** completion/complete: the ref names a prompt, or a resource template (or resource). */
  async complete(
    params: JsonObject | undefined,
    options: RoutedRequestOptions,
  ): Promise<JsonObject> {
    const ref = params?.['ref'];
    if (ref === null || typeof ref !== 'object')
      throw new CofferError('INVALID_INPUT', 'completion/complete needs a "ref"');
    const refObject = ref as JsonObject;
    const isPrompt = refObject['type'] === 'ref/prompt';
    const field = isPrompt ? 'name' : 'uri';
    const exposed = refObject[field];
    if (typeof exposed !== 'string')
      throw new CofferError('INVALID_INPUT', `completion ref needs a string "${field}"`);
    const route = isPrompt
      ? await this.deps.routes.route('prompt', exposed)
      : await this.deps.routes.routeTemplate(exposed);
    await this.deps.guard?.checkOutgoing(route.server.name, params);
    const result = await this.deps.upstream.forward(
      route.server,
      'completion/complete',
      { ...params, ref: { ...refObject, [field]: route.key } },
      options,
    );
    return (await this.redact(result)).result;
  }

  /**
   * A result that reached the client without call(): a task's outcome, fetched later with
   * tasks/result (2025-11-25) or embedded in tasks/get (2026-07-28). No stored secret
   * may leave that way either, and, given the session's `results`, none over the budget:
   * redacted first, so what is kept to read in pages is redacted too.
   */
  async redactLate(result: JsonObject, results?: OversizedResults): Promise<JsonObject> {
    const redacted = (await this.redact(result)).result;
    return results === undefined ? redacted : results.fit(redacted);
  }

  private async redact(result: JsonObject): Promise<GuardedResult> {
    return (await this.deps.guard?.redactResult(result)) ?? { result, events: [] };
  }
}

/**
 * A refusal before routing still names the server when the error knows it, and then the
 * capability by that server's own name, as the rows of calls that went through do: a
 * refused `fx__echo` and a relayed one are both `fx` / `echo` in the activity log.
 */
function refusedAt(
  audited: AuditTarget,
  error: unknown,
  namespace: Namespace,
  type: CapabilityType,
): AuditTarget {
  if (audited.server !== null || !(error instanceof CofferError)) return audited;
  const server = error.data?.['server'];
  if (typeof server !== 'string') return audited;
  const parsed = namespace.parse(type, audited.key);
  return { server, key: parsed?.server === server ? parsed.key : audited.key };
}

/**
 * The params as the upstream gets them: its own key under `field`, and the W3C trace
 * context in `_meta.traceparent`. One copy of the client's params, not one per change.
 */
function forwardedParams(
  params: JsonObject | undefined,
  field: string,
  key: string,
  trace: TraceContext | undefined,
): JsonObject {
  if (trace === undefined) return { ...params, [field]: key };
  const meta = params?.['_meta'];
  const base = meta !== null && typeof meta === 'object' ? (meta as JsonObject) : {};
  return { ...params, [field]: key, _meta: { ...base, traceparent: traceparent(trace) } };
}
