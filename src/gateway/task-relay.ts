import type { CancelSignal } from '../domain/cancel-signal.js';
import { CofferError } from '../domain/errors.js';
import type { JsonObject, UpstreamRequestOptions } from '../domain/ports.js';
import { UpstreamRpcError } from '../domain/ports.js';
import { RELATED_TASK_KEY } from '../domain/task-ids.js';
import type { ServerRecord } from '../domain/server-definition.js';
import type { InflightRequests } from './inflight-requests.js';
import type { TaskEntry, TaskOwner, TaskRegistry } from './task-registry.js';
import type { RoutedRequestOptions } from './upstream-forward.js';
import type { UpstreamPool } from './upstream-pool.js';

export const TASK_STATUS_NOTIFICATION = 'notifications/tasks/status';

export interface TaskRelayDeps {
  readonly registry: TaskRegistry;
  readonly pool: UpstreamPool;
  /** The server behind an exposed tool name (the session's catalog). */
  readonly toolServer: (name: string) => Promise<ServerRecord | undefined>;
  /** The session's client: where its tasks' status notifications go. */
  readonly notify: (method: string, params: JsonObject) => void;
  /** The gateway clock, in ms. */
  readonly now: () => number;
  /** The session's open calls per upstream: where an upstream's question goes. */
  readonly inflight: InflightRequests;
}

/**
 * Who answers an upstream's question tied to one of the relay's tasks, instead of the
 * session's client (the 2026-07-28 tasks extension asks it through tasks/get).
 */
export type TaskQuestions = (
  entry: TaskEntry,
  method: string,
  params: JsonObject | undefined,
  signal: CancelSignal,
) => Promise<JsonObject>;

/** Status notifications for upstream ids not known yet (they can beat the create answer). */
const MAX_PARKED = 32;

/**
 * One session's side of task relaying (MCP 2025-11-25 tasks): rewrites the ids of the
 * tasks its upstreams create, and sends tasks/get, tasks/result and tasks/cancel to the
 * connection the task runs on, after checking that the caller may reach it.
 */
export class TaskRelay implements TaskOwner {
  open = true;
  private parked: { server: string; params: JsonObject }[] = [];
  private questions: TaskQuestions | undefined;

  constructor(private readonly deps: TaskRelayDeps) {}

  /** Questions tied to this relay's tasks go to `handler` from now on. */
  answerQuestionsWith(handler: TaskQuestions): void {
    this.questions = handler;
  }

  /** The task `id` names, if the caller may reach it (TaskRegistry.claim). */
  reach(id: unknown): TaskEntry {
    return this.deps.registry.claim(this, id);
  }

  readonly notify = (method: string, params: JsonObject): void => this.deps.notify(method, params);

  /**
   * The session closed: its tasks become claimable by the next session, and the
   * connections they run on stay open until no task needs them; the others close now.
   */
  async release(pool: UpstreamPool): Promise<void> {
    this.open = false;
    const needed = this.deps.registry.release(this, pool);
    if (needed.size === 0) return pool.closeAll();
    await Promise.all(
      pool.servers().flatMap((server) => (needed.has(server) ? [] : [pool.evict(server)])),
    );
  }

  /** A tools/call answered: a CreateTaskResult gets a Coffer id; anything else passes. */
  async created(params: JsonObject | undefined, result: JsonObject): Promise<JsonObject> {
    const task = result['task'];
    const name = params?.['name'];
    if (!isObject(task) || typeof task['taskId'] !== 'string' || typeof name !== 'string')
      return result;
    const server = await this.deps.toolServer(name);
    if (server === undefined) throw new CofferError('INTERNAL', 'a task from an unknown tool');
    const entry = this.deps.registry.record(this, await this.deps.pool.get(server), task);
    this.flushParked(entry);
    return exposeRelated({ ...result, task: { ...task, taskId: entry.id } }, entry);
  }

  /** tasks/get, tasks/result or tasks/cancel, sent where the task runs. */
  async forward(
    method: 'tasks/get' | 'tasks/result' | 'tasks/cancel',
    params: JsonObject | undefined,
    options: RoutedRequestOptions,
  ): Promise<JsonObject> {
    const entry = this.deps.registry.claim(this, params?.['taskId']);
    // A question the task asks meanwhile (input_required) rides on this request's stream.
    const end =
      entry.origin === this && options.requestId !== undefined
        ? this.deps.inflight.begin(entry.server, options.requestId)
        : undefined;
    try {
      const result = await this.send(entry, method, params, options);
      if (method === 'tasks/result') entry.fetched = true;
      else entry.status = result['status'];
      this.deps.registry.settled(entry);
      return method === 'tasks/result'
        ? exposeRelated(result, entry)
        : { ...result, taskId: entry.id };
    } finally {
      end?.();
    }
  }

  private send(
    entry: TaskEntry,
    method: string,
    params: JsonObject | undefined,
    options: RoutedRequestOptions,
  ): Promise<JsonObject> {
    const { signal } = options;
    // tasks/result blocks until the task ends: it may wait as long as Coffer holds it.
    const timeout =
      method === 'tasks/result'
        ? { timeoutMs: Math.max(1, entry.holdUntil - this.deps.now()) }
        : {};
    const upstreamParams = { ...params, taskId: entry.upstreamId };
    return entry.connection
      .request(method, upstreamParams, { ...(signal && { signal }), ...timeout })
      .catch((error: unknown) => {
        if (method === 'tasks/result' && error instanceof UpstreamRpcError) entry.fetched = true;
        throw hideUpstreamId(error, entry);
      });
  }

  /**
   * tasks/list: the caller's tasks only, each as its upstream reports it now (one page).
   * An upstream's own tasks/list would also show other sessions' tasks on a shared one.
   */
  async list(params: JsonObject | undefined, options: UpstreamRequestOptions): Promise<JsonObject> {
    if (params?.['cursor'] !== undefined)
      throw new CofferError('INVALID_INPUT', 'tasks/list has one page: its cursor is unknown');
    const entries = this.deps.registry.owned(this);
    const tasks = await Promise.all(entries.map((entry) => this.current(entry, options)));
    return { tasks: tasks.filter((task) => task !== undefined) };
  }

  /** An upstream's status notification: to the task's owner, under Coffer's id. */
  statusFromUpstream(server: string, params: JsonObject | undefined): void {
    const upstreamId = params?.['taskId'];
    if (params === undefined || typeof upstreamId !== 'string') return;
    const entry = this.deps.registry.fromUpstream(this, server, upstreamId);
    if (entry === undefined) {
      this.parked = [...this.parked, { server, params }].slice(-MAX_PARKED);
      return;
    }
    entry.status = params['status'];
    entry.owner.notify(TASK_STATUS_NOTIFICATION, withoutRelated({ ...params, taskId: entry.id }));
  }

  /**
   * An upstream's request tied to one of this relay's tasks, answered by the question
   * handler; undefined when there is none or the task is not this relay's.
   */
  taskQuestion(
    server: string,
    method: string,
    params: JsonObject | undefined,
    signal: CancelSignal,
  ): Promise<JsonObject> | undefined {
    const related = relatedTaskId(params);
    if (this.questions === undefined || related === undefined) return undefined;
    const entry = this.deps.registry.fromUpstream(this, server, related);
    if (entry === undefined) return undefined;
    return this.questions(entry, method, this.exposeRelatedOf(server, params), signal);
  }

  /** `_meta` of an upstream message that names one of this session's tasks: Coffer's id. */
  exposeRelatedOf(server: string, params: JsonObject | undefined): JsonObject | undefined {
    const related = relatedTaskId(params);
    if (params === undefined || related === undefined) return params;
    const entry = this.deps.registry.fromUpstream(this, server, related);
    return entry === undefined ? withoutRelated(params) : exposeRelated(params, entry);
  }

  private async current(
    entry: TaskEntry,
    options: UpstreamRequestOptions,
  ): Promise<JsonObject | undefined> {
    try {
      const task = await entry.connection.request(
        'tasks/get',
        { taskId: entry.upstreamId },
        options,
      );
      entry.status = task['status'];
      return withoutMeta({ ...task, taskId: entry.id });
    } catch {
      // The upstream forgot it (its own ttl) or is gone: it is not listed.
      return undefined;
    }
  }

  private flushParked(entry: TaskEntry): void {
    const mine = this.parked.filter(
      (notice) => notice.server === entry.server && notice.params['taskId'] === entry.upstreamId,
    );
    this.parked = this.parked.filter((notice) => !mine.includes(notice));
    for (const notice of mine) this.statusFromUpstream(notice.server, notice.params);
  }
}

function relatedTaskId(params: JsonObject | undefined): string | undefined {
  const meta = params?.['_meta'];
  const related = isObject(meta) ? meta[RELATED_TASK_KEY] : undefined;
  const id = isObject(related) ? related['taskId'] : undefined;
  return typeof id === 'string' ? id : undefined;
}

function exposeRelated(message: JsonObject, entry: TaskEntry): JsonObject {
  const meta = message['_meta'];
  if (!isObject(meta) || meta[RELATED_TASK_KEY] === undefined) return message;
  return { ...message, _meta: { ...meta, [RELATED_TASK_KEY]: { taskId: entry.id } } };
}

/** An upstream id Coffer cannot map never reaches the client. */
function withoutRelated(message: JsonObject): JsonObject {
  const meta = message['_meta'];
  if (!isObject(meta) || meta[RELATED_TASK_KEY] === undefined) return message;
  const rest = { ...meta };
  delete rest[RELATED_TASK_KEY];
  return { ...message, _meta: rest };
}

/** An upstream's error about a task names it by Coffer's id. */
function hideUpstreamId(error: unknown, entry: TaskEntry): unknown {
  if (!(error instanceof UpstreamRpcError) || !error.message.includes(entry.upstreamId))
    return error;
  return new UpstreamRpcError(
    error.code,
    error.message.split(entry.upstreamId).join(entry.id),
    error.data,
  );
}

/** A listed task is a Task, not a result: no result `_meta`. */
function withoutMeta(task: JsonObject): JsonObject {
  const copy = { ...task };
  delete copy['_meta'];
  return copy;
}

function isObject(value: unknown): value is JsonObject {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}
