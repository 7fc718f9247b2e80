import { disabledCode, serverDisabled } from '../domain/capability.js';
import { CofferError } from '../domain/errors.js';
import type {
  ActivityEntry,
  ActivitySink,
  AdminCaller,
  Clock,
  JsonObject,
  ToolRun,
} from '../domain/ports.js';
import { UpstreamRpcError } from '../domain/ports.js';
import { guardEventOf, type GuardEvent } from '../domain/secret-refusals.js';
import type { ServerRecord } from '../domain/server-definition.js';
import { toolChanged } from '../domain/tool-pin.js';
import { childTrace, traceparent } from '../observability/trace-context.js';
import { TOOL_FAILED } from './call-audit.js';
import { capabilityKinds } from './capability-kinds.js';
import { breaksConnection } from './connection-failures.js';
import { invalidHeaderTool } from './header-exclusions.js';
import { loadList, type ListLoaderDeps } from './list-loader.js';
import type { SecretGuard } from './secret-guard.js';

/**
 * A tools/call made from the admin side (the UI's playground) the way a session makes
 * one: the server must be enabled, the tool listed and enabled (the call path is the
 * boundary), the call carries a traceparent, a broken connection is dropped, and the
 * call is recorded in the activity log like an agent's. It is never sent twice. The
 * secret guard applies as to an agent's call: the page never shows a stored secret.
 */
export interface AdminToolCallDeps extends ListLoaderDeps {
  readonly activity: ActivitySink;
  readonly clock: Clock;
  readonly secretGuard?: SecretGuard;
}

async function checkCallable(deps: AdminToolCallDeps, server: ServerRecord, tool: string) {
  if (!server.enabled) throw serverDisabled(server.name);
  const listed = await loadList(deps, server, capabilityKinds.tool);
  if (!listed.items.some((item) => capabilityKinds.tool.keyOf(item) === tool))
    throw new CofferError('CAPABILITY_NOT_FOUND', `Unknown tool "${tool}" of "${server.name}"`, {
      hint: 'refresh the server: the upstream may have changed',
    });
  if (listed.enabled.get(tool) === false)
    throw new CofferError(disabledCode.tool, `Tool "${tool}" is disabled`, {
      hint: `enable it with \`coffer mcp enable ${server.name} --tool ${tool}\``,
    });
  if (listed.held.has(tool)) throw toolChanged(server.name, tool);
  const invalid = listed.invalid?.get(tool);
  if (invalid !== undefined) throw invalidHeaderTool(server.name, tool, invalid);
}

async function send(deps: AdminToolCallDeps, server: ServerRecord, params: JsonObject) {
  const connection = await deps.pool.get(server);
  try {
    return await connection.request('tools/call', params, {});
  } catch (error) {
    if (breaksConnection(error)) await deps.pool.evict(server.name, connection);
    throw error;
  }
}

function failureOf(error: unknown): { code: string; message: string } {
  if (error instanceof CofferError) return { code: error.code, message: error.message };
  if (error instanceof UpstreamRpcError)
    return { code: `RPC_${error.code}`, message: error.message };
  return { code: 'INTERNAL', message: 'Internal error; see logs/coffer.log for details' };
}

export async function callToolAsAdmin(
  deps: AdminToolCallDeps,
  server: ServerRecord,
  tool: string,
  args: JsonObject,
  caller: AdminCaller,
): Promise<ToolRun> {
  const started = deps.clock.now().getTime();
  const trace = childTrace(
    caller.trace_id === undefined ? undefined : { traceId: caller.trace_id },
  );
  let result: JsonObject | undefined;
  let failure: { code: string; message: string } | undefined;
  const events: GuardEvent[] = [];
  try {
    await checkCallable(deps, server, tool);
    const params = { name: tool, arguments: args };
    events.push(...((await deps.secretGuard?.checkOutgoing(server.name, params)) ?? []));
    const meta = { _meta: { traceparent: traceparent(trace) } };
    const answered = await send(deps, server, { ...params, ...meta });
    const guarded = await deps.secretGuard?.redactResult(answered);
    result = guarded?.result ?? answered;
    events.push(...(guarded?.events ?? []));
  } catch (error) {
    failure = failureOf(error);
    const refusal = guardEventOf(failure.code);
    if (refusal !== undefined) events.push(refusal);
  }
  const now = deps.clock.now();
  // A tool that answered isError ran and failed: its row says so, as an agent's call's does.
  const code = failure?.code ?? (result?.['isError'] === true ? TOOL_FAILED : null);
  const activity: ActivityEntry = {
    at: now.toISOString(),
    trace_id: trace.traceId,
    session_id: null,
    client_name: caller.client_name,
    client_version: null,
    server: server.name,
    capability_type: 'tool',
    capability_key: tool,
    action: 'tools/call',
    duration_ms: now.getTime() - started,
    outcome: code === null ? 'ok' : 'error',
    error_code: code,
    guard: events.length === 0 ? null : events.join(','),
  };
  deps.activity.record(activity);
  return failure === undefined
    ? { outcome: 'ok', ...(result === undefined ? {} : { result }), activity }
    : { outcome: 'error', error: failure, activity };
}
