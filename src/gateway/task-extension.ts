import type { CancelSignal } from '../domain/cancel-signal.js';
import { CofferError } from '../domain/errors.js';
import {
  systemSchedule,
  UpstreamRpcError,
  type JsonObject,
  type Schedule,
} from '../domain/ports.js';
import { isObject } from './protocol-eras.js';
import { taskSupportOf } from './task-only-tools.js';
import type { TaskEntry } from './task-registry.js';
import type { TaskRelay } from './task-relay.js';
import {
  completedWith,
  declaresTasks,
  failedWith,
  missingTasksExtension,
  modernTask,
  withoutTaskParam,
  type TaskOutcome,
} from './task-shapes.js';
import type { RoutedRequestOptions } from './upstream-forward.js';

/** The ttl Coffer asks an upstream for: as long as the task registry holds a task. */
const UPSTREAM_TTL_MS = 60 * 60_000;

/**
 * How long a call of a tool that may run either way waits for its task to end before it
 * answers with the task instead: a quick tool answers at once, as a plain call would,
 * rather than costing its client a poll.
 */
const IMMEDIATE_RESULT_MS = 250;

export interface TaskExtensionDeps {
  /** The stateless service's task relay: its tasks, ids and upstream connections. */
  readonly relay: TaskRelay;
  /** The upstream tool behind an exposed name, as listed; undefined for any other name. */
  readonly tool: (name: string) => Promise<JsonObject | undefined>;
  /**
   * Whether the upstream behind an exposed tool name declares task-augmented tools/call
   * (absent: it does). A tool that may run either way is asked as a task only there: the
   * 2025-11-25 spec has a requestor not augment what the receiver did not declare.
   */
  readonly runsTasks?: (name: string) => Promise<boolean>;
  /** The task (by Coffer's id) changed in a way its upstream announces to nobody. */
  readonly changed?: (taskId: string) => void;
  /** Ends the wait of IMMEDIATE_RESULT_MS; tests pass one they run by hand. */
  readonly schedule?: Schedule;
  /**
   * A task's result, answered as the call's own or embedded in tasks/get, is finished as
   * a relayed call's result is: the secret guard's redaction, and the cut of a result
   * over the budget (kept once: later polls answer the same).
   */
  readonly finish?: (result: JsonObject) => Promise<JsonObject>;
}

interface Question {
  readonly method: string;
  readonly params: JsonObject | undefined;
  readonly answer: (result: JsonObject) => void;
}

/** What the bridge keeps of one task: its outcome once fetched, the questions it asks. */
interface TaskState {
  fetching: Promise<TaskOutcome> | undefined;
  /** The whole answer of tasks/get once the task ended: its upstream is asked no more. */
  final: JsonObject | undefined;
  readonly questions: Map<string, Question>;
  asked: number;
}

/**
 * The 2026-07-28 tasks extension (SEP-2663, docs/TASKS.md) over 2025-11-25 upstream
 * tasks: a task-only tool called by a client that declared the extension runs as an
 * upstream task and answers `resultType: "task"` under a Coffer id; tasks/get asks the
 * upstream's tasks/get and, once the task ended, its tasks/result, and embeds the
 * outcome; the questions a task asks on its tasks/result stream become the Task's
 * `inputRequests`, answered by tasks/update; tasks/cancel is relayed.
 */
export class TaskExtension {
  private readonly states = new WeakMap<TaskEntry, TaskState>();

  constructor(private readonly deps: TaskExtensionDeps) {
    deps.relay.answerQuestionsWith((entry, method, params, signal) =>
      this.ask(entry, method, params, signal),
    );
  }

  /**
   * tools/call: `run` relays it. For a client that declared the extension, a tool whose
   * upstream runs it as a task runs as one: a task-only tool answers with the task; one
   * that may run either way answers with its result if the task ends within
   * IMMEDIATE_RESULT_MS, else with the task. Without the extension a task-only tool is
   * refused and the others run as plain calls.
   */
  async call(
    params: JsonObject | undefined,
    run: (params: JsonObject | undefined) => Promise<JsonObject>,
  ): Promise<JsonObject> {
    const name = params?.['name'];
    const tool =
      typeof name === 'string' ? await this.deps.tool(name).catch(() => undefined) : undefined;
    const support = tool === undefined ? 'forbidden' : await this.supportOf(String(name), tool);
    const declared = declaresTasks(params);
    if (support === 'forbidden' || (support === 'optional' && !declared))
      return run(withoutTaskParam(params));
    if (!declared)
      throw missingTasksExtension(`the tool ${String(name)} runs only as a task, so calling it`);
    const asTask = { ...params, task: { ttl: UPSTREAM_TTL_MS } };
    const answer = await this.deps.relay.created(params, await run(asTask));
    const task = answer['task'];
    if (!isObject(task)) return answer;
    const created = { ...modernTask(task), resultType: 'task' };
    return support === 'optional' ? this.soonOrTask(created) : created;
  }

  /** How the tool runs as a task here: "optional" only where its upstream declares tasks. */
  private async supportOf(name: string, tool: JsonObject) {
    const support = taskSupportOf(tool);
    if (support !== 'optional' || this.deps.runsTasks === undefined) return support;
    return (await this.deps.runsTasks(name).catch(() => false)) ? support : 'forbidden';
  }

  /** The task's result if it ends within IMMEDIATE_RESULT_MS, else the task itself. */
  private async soonOrTask(created: JsonObject): Promise<JsonObject> {
    const entry = this.deps.relay.reach(created['taskId']);
    const outcome = this.fetch(entry, this.stateOf(entry)).catch(() => undefined);
    let cancel = (): void => undefined;
    const late = new Promise<undefined>((resolve) => {
      cancel = (this.deps.schedule ?? systemSchedule)(
        () => resolve(undefined),
        IMMEDIATE_RESULT_MS,
      );
    });
    const soon = await Promise.race([outcome, late]);
    cancel();
    return soon?.status === 'completed' ? (await this.finished(soon)).result : created;
  }

  /** An outcome whose result reaches the client: finished as a relayed call's result. */
  private async finished<T extends TaskOutcome>(outcome: T): Promise<T> {
    if (outcome.status !== 'completed' || this.deps.finish === undefined) return outcome;
    return { ...outcome, result: await this.deps.finish(outcome.result) };
  }

  /** tasks/get: the task now, with its result or error once it ended. */
  async get(params: JsonObject | undefined, options: RoutedRequestOptions): Promise<JsonObject> {
    const entry = this.reach('tasks/get', params);
    const state = this.stateOf(entry);
    if (state.final !== undefined) return state.final;
    const task = modernTask(
      await this.deps.relay.forward('tasks/get', { taskId: entry.id }, options),
    );
    if (task['status'] === 'completed' || task['status'] === 'failed') {
      state.final = { ...task, ...(await this.finished(await this.fetch(entry, state))) };
      return state.final;
    }
    if (task['status'] !== 'input_required') return task;
    // A 2025 task asks its questions on a tasks/result stream: open one, and show what
    // it asked; until the first question arrives the task is still Coffer's to work on.
    void this.fetch(entry, state).catch(() => undefined);
    if (state.questions.size === 0) return { ...task, status: 'working' };
    const inputRequests = Object.fromEntries(
      [...state.questions].map(([key, q]) => [
        key,
        q.params === undefined ? { method: q.method } : { method: q.method, params: q.params },
      ]),
    );
    return { ...task, inputRequests };
  }

  /** tasks/update: answers to the questions tasks/get showed; unknown keys are ignored. */
  update(params: JsonObject | undefined): JsonObject {
    const entry = this.reach('tasks/update', params);
    const responses = params?.['inputResponses'];
    if (!isObject(responses))
      throw new CofferError('INVALID_INPUT', 'tasks/update needs an "inputResponses" object', {
        hint: 'answer the inputRequests of the task that tasks/get returned, by their keys',
      });
    const questions = this.stateOf(entry).questions;
    for (const [key, response] of Object.entries(responses)) {
      const question = questions.get(key);
      if (question === undefined || !isObject(response)) continue;
      questions.delete(key);
      question.answer(response);
    }
    return {};
  }

  /**
   * tasks/cancel: relayed; the extension's answer is an empty acknowledgement, for a task
   * that already ended too. A 2025-11-25 upstream refuses that one (-32602), where the
   * extension keeps -32602 for ids nobody knows: a known task's refusal is checked.
   */
  async cancel(params: JsonObject | undefined, options: RoutedRequestOptions): Promise<JsonObject> {
    const entry = this.reach('tasks/cancel', params);
    try {
      await this.deps.relay.forward('tasks/cancel', { taskId: entry.id }, options);
    } catch (error) {
      if (!(error instanceof UpstreamRpcError) || !(await this.ended(entry, options))) throw error;
    }
    return {};
  }

  /** Whether the task ended, as its upstream says now (a failure to say is a no). */
  private async ended(entry: TaskEntry, options: RoutedRequestOptions): Promise<boolean> {
    if (this.stateOf(entry).final !== undefined) return true;
    const task = await this.deps.relay
      .forward('tasks/get', { taskId: entry.id }, options)
      .catch(() => undefined);
    return ['completed', 'failed', 'cancelled'].includes(String(task?.['status']));
  }

  private reach(method: string, params: JsonObject | undefined): TaskEntry {
    if (!declaresTasks(params)) throw missingTasksExtension(method);
    return this.deps.relay.reach(params?.['taskId']);
  }

  private stateOf(entry: TaskEntry): TaskState {
    let state = this.states.get(entry);
    if (state === undefined) {
      state = { fetching: undefined, final: undefined, questions: new Map(), asked: 0 };
      this.states.set(entry, state);
    }
    return state;
  }

  /**
   * The upstream's tasks/result, asked once per task (it blocks until the task ends). A
   * JSON-RPC error is the task's own failure; anything else (a dropped connection) is
   * this attempt's, and the next tasks/get tries again.
   */
  private fetch(entry: TaskEntry, state: TaskState): Promise<TaskOutcome> {
    state.fetching ??= this.deps.relay
      .forward('tasks/result', { taskId: entry.id }, {})
      .then(completedWith, (error: unknown) => {
        if (error instanceof UpstreamRpcError) return failedWith(error);
        state.fetching = undefined;
        throw error;
      });
    return state.fetching;
  }

  /** An upstream's question tied to the task: kept until tasks/update answers it. */
  private ask(
    entry: TaskEntry,
    method: string,
    params: JsonObject | undefined,
    signal: CancelSignal,
  ): Promise<JsonObject> {
    const state = this.stateOf(entry);
    const key = `coffer-${++state.asked}`;
    return new Promise((answer, fail) => {
      const withdrawn = (): void => {
        state.questions.delete(key);
        fail(new Error('the upstream withdrew its question'));
      };
      if (signal.aborted) return withdrawn();
      const stopListening = signal.onAbort(withdrawn);
      state.questions.set(key, {
        method,
        params,
        answer: (result) => {
          stopListening();
          answer(result);
        },
      });
      // A 2025 upstream announces input_required before its question arrives.
      this.deps.changed?.(entry.id);
    });
  }
}
