import type { CapabilityType } from '../domain/capability.js';
import { CofferError } from '../domain/errors.js';
import { UpstreamRpcError, type ActivitySink, type Clock } from '../domain/ports.js';
import { guardEventOf, type GuardEvent } from '../domain/secret-refusals.js';
import type { TraceContext } from '../observability/trace-context.js';

/** Who is calling, for the activity log. */
export interface Caller {
  readonly session_id: string | null;
  readonly client_name: string | null;
  readonly client_version: string | null;
}

/** What one audited request was aimed at; the server is null only when nobody could tell. */
export interface AuditTarget {
  readonly server: string | null;
  readonly key: string;
}

/** One audited request as it ended: `error` undefined when it succeeded. */
export interface AuditedRequest {
  readonly method: string;
  readonly type: CapabilityType;
  readonly target: AuditTarget;
  readonly started: number;
  readonly error?: unknown;
  /** A tools/call answered with `isError: true`: the tool ran and failed. */
  readonly toolFailed?: boolean;
  readonly guarded?: readonly GuardEvent[];
  readonly trace?: TraceContext | undefined;
  /** Said per request (a 2026-07-28 envelope); else the session's caller. */
  readonly caller?: Caller | undefined;
}

/** A skill's entry (the Skills extension) is got as a prompt is; a directory read is a list. */
const AUDITED = new Set(['tools/call', 'prompts/get', 'resources/read', 'skills/get']);

/**
 * The activity row of one call, get or read, refused ones included: a refused call names
 * the server it was meant for whenever the name says it (issue 21), so the activity page
 * answers "what did my agent try on this server". Lists and subscriptions are not rows.
 * What the secret guard did (issue 20.3) goes in `guard`, never what it found.
 */
export class CallAudit {
  constructor(
    private readonly activity: ActivitySink,
    private readonly clock: Clock,
    private readonly caller: () => Caller,
  ) {}

  started(): number {
    return this.clock.now().getTime();
  }

  record(request: AuditedRequest): void {
    const { method, type, target, started, error, guarded = [], trace, caller } = request;
    if (!AUDITED.has(method)) return;
    const now = this.clock.now();
    const code =
      error === undefined ? (request.toolFailed === true ? TOOL_FAILED : null) : errorCodeOf(error);
    const refusal = code === null ? undefined : guardEventOf(code);
    const events = refusal === undefined ? guarded : [...guarded, refusal];
    this.activity.record({
      at: now.toISOString(),
      trace_id: trace?.traceId ?? null,
      ...(caller ?? this.caller()),
      server: target.server,
      capability_type: type,
      capability_key: target.key,
      action: method,
      duration_ms: now.getTime() - started,
      outcome: code === null ? 'ok' : 'error',
      error_code: code,
      guard: events.length === 0 ? null : events.join(','),
    });
  }
}

/**
 * The code of a call whose tool said it failed (`isError: true`): the call went through,
 * and the agent got the tool's own error to read, but it is not a success either.
 */
export const TOOL_FAILED = 'TOOL_ERROR';

/** The activity log's error code: Coffer's own, or the upstream's JSON-RPC code. */
function errorCodeOf(error: unknown): string {
  if (error instanceof CofferError) return error.code;
  if (error instanceof UpstreamRpcError) return `RPC_${error.code}`;
  return 'INTERNAL';
}
