import type { JsonObject } from '../../../domain/ports.js';
import { capabilityKinds } from '../../capability-kinds.js';
import { needsTasks } from '../../task-only-tools.js';
import type { TaskExtension } from '../../task-extension.js';
import type { TaskRelay } from '../../task-relay.js';
import { declaresTasks } from '../../task-shapes.js';
import type { RequestContext, RequestHandler } from '../method-table.js';

/**
 * tasks/get, tasks/result, tasks/cancel and tasks/list (MCP 2025-11-25 tasks): answered
 * for the session's own tasks only, from the upstream each runs on (docs/TASKS.md).
 */
export function tasksHandlers(tasks: TaskRelay): (readonly [string, RequestHandler])[] {
  const forwarded =
    (method: 'tasks/get' | 'tasks/result' | 'tasks/cancel'): RequestHandler =>
    (params, context) =>
      tasks.forward(method, params, { signal: context.signal, requestId: context.id });
  return [
    ['tasks/get', forwarded('tasks/get')],
    ['tasks/result', forwarded('tasks/result')],
    ['tasks/cancel', forwarded('tasks/cancel')],
    ['tasks/list', (params, context) => tasks.list(params, { signal: context.signal })],
  ];
}

/**
 * tools/call that may create a task: its CreateTaskResult gets Coffer's task id. Checked
 * on every answer, not only task-augmented calls: an upstream id must never reach a client.
 */
export function taskCreatingCall(tasks: TaskRelay, call: RequestHandler): RequestHandler {
  return async (params, context) => tasks.created(params, await call(params, context));
}

/**
 * tasks/get, tasks/update and tasks/cancel of the 2026-07-28 tasks extension (no
 * tasks/result, no tasks/list: the extension has neither).
 */
export function taskExtensionHandlers(tasks: TaskExtension): (readonly [string, RequestHandler])[] {
  const options = (context: RequestContext) => ({ signal: context.signal, requestId: context.id });
  return [
    ['tasks/get', (params, context) => tasks.get(params, options(context))],
    ['tasks/update', (params) => tasks.update(params)],
    ['tasks/cancel', (params, context) => tasks.cancel(params, options(context))],
  ];
}

/** A 2026-07-28 tools/call: a task-only tool runs as a task (TaskExtension.call). */
export function taskExtensionCall(tasks: TaskExtension, call: RequestHandler): RequestHandler {
  return (params, context) => tasks.call(params, async (relayed) => call(relayed, context));
}

/**
 * A 2026-07-28 tools/list: a client that did not declare the extension in this request
 * is not shown the tools that run only as tasks (it could not call them).
 */
export function withoutTaskOnlyTools(list: RequestHandler): RequestHandler {
  const trimmed = new WeakMap<JsonObject, JsonObject>();
  return async (params, context) => {
    const result = await list(params, context);
    const tools = result['tools'];
    if (declaresTasks(params) || !Array.isArray(tools)) return result;
    let answer = trimmed.get(result);
    if (answer === undefined) {
      const kept = (tools as JsonObject[]).filter(
        (tool) => !needsTasks(capabilityKinds.tool, tool),
      );
      answer = { ...result, tools: kept };
      trimmed.set(result, answer);
    }
    return answer;
  };
}
