import type { TaskRelay } from '../../task-relay.js';
import type { RequestHandler } from '../method-table.js';

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
