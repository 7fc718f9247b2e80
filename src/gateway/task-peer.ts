import type { UpstreamPeer } from '../domain/ports.js';
import { TASK_STATUS_NOTIFICATION, type TaskRelay } from './task-relay.js';

/**
 * An upstream's view of the client, with task ids translated on the way down: a status
 * notification goes to the task's current owner under Coffer's id, and a request or
 * notification tied to a task (`_meta` related-task, e.g. an elicitation the task waits
 * on) names Coffer's id, or none when Coffer does not know the task. A question tied to
 * a task whose relay answers questions itself (the 2026-07-28 extension) goes there.
 */
export function taskAwarePeer(inner: UpstreamPeer, server: string, tasks: TaskRelay): UpstreamPeer {
  return {
    request: (method, params, signal) =>
      tasks.taskQuestion(server, method, params, signal) ??
      inner.request(method, tasks.exposeRelatedOf(server, params), signal),
    notify(method, params) {
      if (method === TASK_STATUS_NOTIFICATION) return tasks.statusFromUpstream(server, params);
      inner.notify(method, tasks.exposeRelatedOf(server, params));
    },
  };
}
