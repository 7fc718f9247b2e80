import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import type { JsonObject } from '../domain/ports.js';
import type { ListenHub } from './listen-hub.js';
import { isObject } from './protocol-eras.js';
import { TASK_STATUS_NOTIFICATION } from './task-relay.js';

/** The tasks extension's status notification (2026-07-28): the whole Task, as tasks/get. */
export const TASK_NOTIFICATION = 'notifications/tasks';

export interface TaskStatusFeedOptions {
  readonly hub: ListenHub;
  /** The Task as the extension's tasks/get answers it now (outcome included, redacted). */
  readonly detail: (taskId: string) => Promise<JsonObject>;
}

/**
 * Turns the 2025-11-25 `notifications/tasks/status` an upstream sends (already under
 * Coffer's task id, task-relay.ts) into the extension's `notifications/tasks` for the
 * `subscriptions/listen` streams that named that id. The 2026 notification carries the
 * Task as tasks/get shows it (a completed one with its result), so it is built by the
 * same path, only for a task somebody follows, and one at a time per task so a client
 * never sees an older status after a newer one.
 */
export class TaskStatusFeed {
  private readonly pending = new Map<string, Promise<void>>();

  constructor(private readonly options: TaskStatusFeedOptions) {}

  /** Every notification for the listeners goes through here. */
  readonly publish = (message: JSONRPCMessage): Promise<void> => {
    if (!('method' in message) || message.method !== TASK_STATUS_NOTIFICATION)
      return this.options.hub.publish(message);
    const params = 'params' in message ? message.params : undefined;
    const taskId = isObject(params) ? params['taskId'] : undefined;
    if (typeof taskId === 'string') this.changed(taskId);
    return Promise.resolve();
  };

  /** The task changed without a notification of its upstream (its question arrived). */
  changed(taskId: string): void {
    if (this.options.hub.followsTask(taskId)) this.queue(taskId);
  }

  private queue(taskId: string): void {
    const previous = this.pending.get(taskId) ?? Promise.resolve();
    const next = previous.then(() => this.deliver(taskId));
    this.pending.set(taskId, next);
    void next.finally(() => {
      if (this.pending.get(taskId) === next) this.pending.delete(taskId);
    });
  }

  /** A task Coffer can no longer reach (expired, its upstream gone) is not announced. */
  private async deliver(taskId: string): Promise<void> {
    const task = await this.options.detail(taskId).catch(() => undefined);
    if (task === undefined) return;
    const params = { ...task };
    delete params['resultType'];
    delete params['_meta'];
    await this.options.hub.publish({ jsonrpc: '2.0', method: TASK_NOTIFICATION, params });
  }
}
