/* The stateless service over a fake 2025-11-25 task upstream, for the tasks extension's tests. */
import { expect } from 'vitest';
import { Cancellation } from '../../../../src/domain/cancel-signal.js';
import { UpstreamRpcError, type JsonObject, type Schedule } from '../../../../src/domain/ports.js';
import { RELATED_TASK_KEY } from '../../../../src/domain/task-ids.js';
import type { GatewayContext } from '../../../../src/gateway/gateway-context.js';
import { StatelessService } from '../../../../src/gateway/stateless-service.js';
import { TaskRegistry } from '../../../../src/gateway/task-registry.js';
import type { FakeConnector, Script } from './fake-upstream.js';
import { fakeGatewayContext, ManualClock } from './session-harness.js';

export const EXTENSION = 'io.modelcontextprotocol/tasks';
export const coffersId = /^fx__[0-9a-f]{32}$/;

/** The envelope of a 2026-07-28 request, with or without the tasks extension. */
export function envelope(tasks: boolean): JsonObject {
  return {
    'io.modelcontextprotocol/protocolVersion': '2026-07-28',
    'io.modelcontextprotocol/clientCapabilities': tasks ? { extensions: { [EXTENSION]: {} } } : {},
  };
}

/**
 * A fake 2025-11-25 upstream that runs `research` (task only) and `quick` (either way) as a
 * task, finished when the test says; `plain` never runs as one.
 */
function taskServer(upstreams: () => FakeConnector) {
  const status = new Map<string, string>();
  const outcome = new Map<string, () => Promise<JsonObject> | JsonObject>();
  const task = (taskId: string) => ({
    taskId,
    status: status.get(taskId),
    ttl: 60_000,
    pollInterval: 500,
    createdAt: '2026-12-04T08:00:00Z',
    lastUpdatedAt: '2026-12-04T08:00:00Z',
  });
  const script: Script = {
    'tools/list': () => ({
      tools: [
        { name: 'research', execution: { taskSupport: 'required' } },
        { name: 'quick', execution: { taskSupport: 'optional' } },
        { name: 'plain' },
      ],
    }),
    'tools/call': (params) => {
      if (params?.['task'] === undefined) return { content: [{ type: 'text', text: 'plain' }] };
      // A task told to end before it was created (ends, holds) starts as it is told.
      if (!status.has('up-1')) status.set('up-1', 'working');
      return { task: task('up-1') };
    },
    'tasks/get': (params) => task(String(params?.['taskId'])),
    'tasks/cancel': (params) => {
      // As a 2025-11-25 server answers (the SDK's words): a task that ended stays so.
      const now = status.get(String(params?.['taskId']));
      if (now === 'completed' || now === 'failed' || now === 'cancelled')
        throw new UpstreamRpcError(-32602, `Cannot cancel task in terminal status: ${now}`);
      status.set(String(params?.['taskId']), 'cancelled');
      return task(String(params?.['taskId']));
    },
    'tasks/result': (params) => outcome.get(String(params?.['taskId']))!(),
  };
  /** The task asks the client through its tasks/result stream, as server-everything does. */
  const asks = (question: JsonObject) => {
    let asked!: () => void;
    const questionAsked = new Promise<void>((resolve) => (asked = resolve));
    status.set('up-1', 'input_required');
    outcome.set('up-1', async () => {
      const peer = upstreams().latest('fx').context.peer;
      const params = { ...question, _meta: { [RELATED_TASK_KEY]: { taskId: 'up-1' } } };
      const answering = peer.request('elicitation/create', params, new Cancellation());
      asked();
      const answer = await answering;
      status.set('up-1', 'completed');
      return { content: [{ type: 'text', text: JSON.stringify(answer) }] };
    });
    return questionAsked;
  };
  const ends = (how: () => JsonObject) => {
    status.set('up-1', 'completed');
    outcome.set('up-1', how);
  };
  /** The task ends when `finish` is called; until then its tasks/result waits. */
  const holds = () => {
    let finish!: (result: JsonObject) => void;
    const ended = new Promise<JsonObject>((resolve) => (finish = resolve));
    outcome.set('up-1', () => ended);
    return (result: JsonObject) => {
      status.set('up-1', 'completed');
      finish(result);
    };
  };
  return { script, asks, ends, holds };
}

/**
 * Timers the test runs by hand: `scheduled()` waits until one is set, `due()` runs the
 * ones waiting as if their time had come, `pending()` counts them.
 */
function manualSchedule() {
  const waiting = new Set<() => void>();
  let set: (() => void) | undefined;
  const schedule: Schedule = (work) => {
    waiting.add(work);
    set?.();
    return () => waiting.delete(work);
  };
  const scheduled = (): Promise<void> =>
    waiting.size > 0 ? Promise.resolve() : new Promise((resolve) => (set = resolve));
  const due = (): void => {
    const works = [...waiting];
    waiting.clear();
    for (const work of works) work();
  };
  return { schedule, scheduled, due, pending: () => waiting.size };
}

let service: StatelessService | undefined;

/** For afterEach: the service start() made is closed. */
export async function stopTasks(): Promise<void> {
  await service?.close();
  service = undefined;
}

/**
 * A stateless service over one fake task upstream, and a client of it. The upstream
 * declares task-augmented tools/call unless `declaresTasks` is false.
 */
export function start({
  declaresTasks = true,
  resultLimit,
}: { declaresTasks?: boolean; resultLimit?: GatewayContext['resultLimit'] } = {}) {
  const clock = new ManualClock();
  const tasks = new TaskRegistry({ clock, every: () => () => undefined });
  const server = taskServer(() => upstreams);
  const timers = manualSchedule();
  const tasksCapability = { tasks: { list: {}, cancel: {}, requests: { tools: { call: {} } } } };
  const { context, upstreams } = fakeGatewayContext(
    { fx: server.script },
    { clock, tasks, schedule: timers.schedule, ...(resultLimit && { resultLimit }) },
    { fx: { tools: { listChanged: true }, ...(declaresTasks ? tasksCapability : {}) } },
  );
  service = new StatelessService({ context, scope: { kind: 'aggregated' } });
  let id = 0;
  const answers: JsonObject[] = [];
  const wake: (() => void)[] = [];
  const router = service.channel((message) => {
    answers.push(message);
    for (const waiter of wake.splice(0)) waiter();
    return Promise.resolve();
  });
  /** One request and its answer (a result or an error), waited for as it is sent. */
  const ask = async (method: string, params: JsonObject = {}, tasks = true) => {
    const request = { jsonrpc: '2.0' as const, id: ++id, method };
    router.receive({ ...request, params: { ...params, _meta: envelope(tasks) } });
    for (;;) {
      const answer = answers.find((message) => message['id'] === request.id);
      if (answer !== undefined)
        return answer as { result?: JsonObject; error?: { code: number; data?: JsonObject } };
      await new Promise<void>((resolve) => wake.push(resolve));
    }
  };
  return { ...server, upstreams, ask, router, sent: answers, wake, timers };
}

/** A task created by calling the task-only tool, by its Coffer id. */
export async function created(ask: ReturnType<typeof start>['ask']): Promise<string> {
  const { result } = await ask('tools/call', { name: 'fx__research', arguments: {} });
  expect(result).toMatchObject({ resultType: 'task', status: 'working', ttlMs: 60_000 });
  expect(result?.['taskId']).toMatch(coffersId);
  return String(result?.['taskId']);
}
