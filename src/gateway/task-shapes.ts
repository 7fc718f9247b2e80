import type { JsonObject, UpstreamRpcError } from '../domain/ports.js';
import { RELATED_TASK_KEY } from '../domain/task-ids.js';
import { modernResult } from './modern-results.js';
import { META, missingClientCapability } from '../domain/mcp-envelope.js';
import { isObject } from './protocol-eras.js';

/** The 2026-07-28 tasks extension (SEP-2663), as clients and servers name it. */
export const TASKS_EXTENSION = 'io.modelcontextprotocol/tasks';

/** A 2026-07-28 request whose client declared the tasks extension in its envelope. */
export function declaresTasks(params: JsonObject | undefined): boolean {
  const meta = params?.['_meta'];
  const capabilities = isObject(meta) ? meta[META.clientCapabilities] : undefined;
  const extensions = isObject(capabilities) ? capabilities['extensions'] : undefined;
  return isObject(extensions) && extensions[TASKS_EXTENSION] !== undefined;
}

/** The spec's -32021 error, naming the extension the request needs. */
export function missingTasksExtension(what: string) {
  return missingClientCapability(
    { extensions: { [TASKS_EXTENSION]: {} } },
    `Missing required client capability: ${what} needs the ${TASKS_EXTENSION} extension; declare it in the request's clientCapabilities.extensions`,
  );
}

/**
 * A 2026-07-28 call without the 2025-11-25 `task` param: that era has none, so a client's
 * leftover one is ignored rather than making a 2025 upstream answer with a task (or refuse
 * a tool that never runs as one). Only Coffer asks an upstream for a task.
 */
export function withoutTaskParam(params: JsonObject | undefined): JsonObject | undefined {
  if (params === undefined || !('task' in params)) return params;
  const rest = { ...params };
  delete rest['task'];
  return rest;
}

/**
 * A 2025-11-25 Task (already under Coffer's id) as the 2026-07-28 extension shapes it:
 * `ttl` and `pollInterval` become `ttlMs` and `pollIntervalMs`; a Task carries no `_meta`
 * (the 2025 related-task key means nothing on this era).
 */
export function modernTask(task: JsonObject): JsonObject {
  const { ttl, pollInterval, ...rest } = task;
  delete rest['_meta'];
  return {
    ...rest,
    lastUpdatedAt: rest['lastUpdatedAt'] ?? rest['createdAt'],
    ttlMs: typeof ttl === 'number' ? ttl : null,
    ...(typeof pollInterval === 'number' ? { pollIntervalMs: pollInterval } : {}),
  };
}

/**
 * How a finished task ended, as tasks/get embeds it: an upstream tasks/result answer is
 * `completed` with that result, shaped as the 2026-07-28 tools/call result it stands for
 * (`resultType: "complete"`; a tool result with isError too, as the extension wants); a
 * JSON-RPC error from it is `failed` with that error.
 */
export type TaskOutcome =
  | { readonly status: 'completed'; readonly result: JsonObject }
  | { readonly status: 'failed'; readonly error: JsonObject };

export function completedWith(upstreamResult: JsonObject): TaskOutcome {
  const result = modernResult('tools/call', upstreamResult);
  const meta = result['_meta'];
  if (!isObject(meta) || meta[RELATED_TASK_KEY] === undefined)
    return { status: 'completed', result };
  const rest = { ...meta };
  delete rest[RELATED_TASK_KEY];
  const bare = { ...result };
  delete bare['_meta'];
  return {
    status: 'completed',
    result: Object.keys(rest).length === 0 ? bare : { ...bare, _meta: rest },
  };
}

export function failedWith(error: UpstreamRpcError): TaskOutcome {
  const data = error.data === undefined ? {} : { data: error.data };
  return { status: 'failed', error: { code: error.code, message: error.message, ...data } };
}
