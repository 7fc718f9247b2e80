import { afterEach, describe, expect, it } from 'vitest';
import type { JsonObject } from '../../../../src/domain/ports.js';
import { RELATED_TASK_KEY } from '../../../../src/domain/task-ids.js';
import { TaskRegistry } from '../../../../src/gateway/task-registry.js';
import { FakeConnector, type Script } from './fake-upstream.js';
import { ManualClock, startSession, type Harness } from './session-harness.js';

const RELATED = RELATED_TASK_KEY;
const taskCapable = { tasks: { list: {}, cancel: {}, requests: {} } };
let harnesses: Harness[] = [];
afterEach(async () => {
  await Promise.all(harnesses.map((h) => h.session.close()));
  harnesses = [];
});

/** A fake upstream that runs `research` as a task it finishes when the test says. */
function taskServer() {
  const status = new Map<string, string>();
  let next = 0;
  const task = (taskId: string) => ({
    taskId,
    status: status.get(taskId),
    ttl: 60_000,
    createdAt: '2026-12-04T08:00:00Z',
    lastUpdatedAt: '2026-12-04T08:00:00Z',
  });
  const script: Script = {
    'tools/list': () => ({
      tools: [{ name: 'research', execution: { taskSupport: 'required' } }, { name: 'plain' }],
    }),
    'tools/call': () => {
      const taskId = `up-${++next}`;
      status.set(taskId, 'working');
      return { task: task(taskId) };
    },
    'tasks/get': (params) => task(String(params?.['taskId'])),
    'tasks/cancel': (params) => {
      status.set(String(params?.['taskId']), 'cancelled');
      return task(String(params?.['taskId']));
    },
    'tasks/result': (params) => ({
      content: [{ type: 'text', text: `done ${String(params?.['taskId'])}` }],
      _meta: { [RELATED]: { taskId: params?.['taskId'] } },
    }),
  };
  return { script, finish: (taskId: string) => status.set(taskId, 'completed') };
}

/** Two sessions of one daemon: one task registry and one clock. */
async function daemonSessions(script: Script, count = 1) {
  const clock = new ManualClock();
  const tasks = new TaskRegistry({ clock, every: () => () => undefined });
  const open = async () => {
    const harness = await startSession({ fx: script }, { kind: 'aggregated' }, { clock, tasks });
    harnesses.push(harness);
    await harness.initialize(taskCapable);
    return harness;
  };
  const sessions: Harness[] = [];
  for (let i = 0; i < count; i++) sessions.push(await open());
  return { clock, tasks, sessions, open };
}

async function createTask(harness: Harness, id: number): Promise<string> {
  const answer = await harness.client.request(id, 'tools/call', {
    name: 'fx__research',
    arguments: {},
    task: { ttl: 60_000 },
  });
  const task = (answer['result'] as JsonObject)['task'] as JsonObject;
  return String(task['taskId']);
}

/** The names of the upstream's tools a client sees (Coffer's own left out). */
async function upstreamTools(harness: Harness): Promise<unknown[]> {
  const listed = await harness.client.request('list', 'tools/list');
  const tools = (listed['result'] as JsonObject)['tools'] as JsonObject[];
  return tools.map((tool) => tool['name']).filter((name) => String(name).startsWith('fx__'));
}

function errorOf(answer: JsonObject): JsonObject {
  return answer['error'] as JsonObject;
}

describe('tasks through a session', () => {
  it('lists a task-only tool only to a client that declared tasks, and declares tasks', async () => {
    const server = taskServer();
    const plain = await startSession({ fx: server.script });
    harnesses.push(plain);
    const declared = await plain.initialize();
    expect(declared['capabilities']).toMatchObject({
      tasks: { requests: { tools: { call: {} } } },
    });
    expect(await upstreamTools(plain)).toEqual(['fx__plain']);
    const { sessions } = await daemonSessions(server.script);
    expect(await upstreamTools(sessions[0]!)).toEqual(['fx__research', 'fx__plain']);
  });

  it("mirrors an upstream's tasks capability on the single-server endpoint", async () => {
    const tasks = { list: {}, cancel: {}, requests: { tools: { call: {} } } };
    const connector = new FakeConnector({ fx: taskServer().script }, { fx: { tools: {}, tasks } });
    const single = await startSession({ fx: {} }, { kind: 'single', server: 'fx' }, { connector });
    harnesses.push(single);
    const declared = await single.initialize(taskCapable);
    expect(declared['capabilities']).toEqual({ logging: {}, tools: {}, tasks });
    const listed = await single.client.request(1, 'tools/list');
    expect(listed['result']).toMatchObject({ tools: [{ name: 'research' }, { name: 'plain' }] });
  });

  it('gives the task an id that names its server, and relays get and result under it', async () => {
    const server = taskServer();
    const { sessions } = await daemonSessions(server.script);
    const harness = sessions[0]!;
    const id = await createTask(harness, 1);
    expect(id).toMatch(/^fx__[0-9a-f]{32}$/);
    const upstream = harness.upstreams.latest('fx');
    expect(upstream.calledWith('tools/call')[0]?.params).toMatchObject({ task: { ttl: 60_000 } });
    const got = await harness.client.request(2, 'tasks/get', { taskId: id });
    expect(got['result']).toMatchObject({ taskId: id, status: 'working' });
    expect(upstream.calledWith('tasks/get')[0]?.params).toEqual({ taskId: 'up-1' });
    server.finish('up-1');
    const result = await harness.client.request(3, 'tasks/result', { taskId: id });
    expect(result['result']).toEqual({
      content: [{ type: 'text', text: 'done up-1' }],
      _meta: { [RELATED]: { taskId: id } },
    });
  });

  it('relays status notifications under the Coffer id, even one that beats the create answer', async () => {
    const server = taskServer();
    const early: Script = {
      ...server.script,
      'tools/call': async (params, options) => {
        const peer = harnesses[0]!.upstreams.latest('fx').context.peer;
        peer.notify('notifications/tasks/status', { taskId: 'up-1', status: 'working' });
        return server.script['tools/call']!(params, options);
      },
    };
    const { sessions } = await daemonSessions(early);
    const harness = sessions[0]!;
    const id = await createTask(harness, 1);
    const first = await harness.client.next(
      (s) => s.message['method'] === 'notifications/tasks/status',
    );
    expect(first.message['params']).toEqual({ taskId: id, status: 'working' });
    const peer = harness.upstreams.latest('fx').context.peer;
    peer.notify('notifications/tasks/status', { taskId: 'up-1', status: 'completed' });
    peer.notify('notifications/tasks/status', { taskId: 'someone-else', status: 'completed' });
    await harness.client.request(2, 'ping');
    const statuses = harness.client.sent
      .filter((s) => s.message['method'] === 'notifications/tasks/status')
      .map((s) => s.message['params']);
    expect(statuses).toEqual([
      { taskId: id, status: 'working' },
      { taskId: id, status: 'completed' },
    ]);
  });

  it('refuses a task id of another live session, and unknown ids, without asking the upstream', async () => {
    const { sessions } = await daemonSessions(taskServer().script, 2);
    const [mine, theirs] = [sessions[0]!, sessions[1]!];
    const id = await createTask(mine, 1);
    for (const [n, method] of ['tasks/get', 'tasks/result', 'tasks/cancel'].entries()) {
      const refused = await theirs.client.request(10 + n, method, { taskId: id });
      expect(errorOf(refused)).toMatchObject({
        code: -32602,
        data: { coffer_code: 'TASK_NOT_FOUND', server: 'fx' },
      });
    }
    const guessed = await mine.client.request(2, 'tasks/get', { taskId: 'fx__up-1' });
    expect(errorOf(guessed)).toMatchObject({ data: { coffer_code: 'TASK_NOT_FOUND' } });
    expect(theirs.upstreams.connections.flatMap((c) => c.calledWith('tasks/get'))).toEqual([]);
  });

  it("lists only the caller's tasks, and cancels one", async () => {
    const { sessions } = await daemonSessions(taskServer().script, 2);
    const [mine, theirs] = [sessions[0]!, sessions[1]!];
    const a = await createTask(mine, 1);
    const b = await createTask(mine, 2);
    await createTask(theirs, 1);
    const listed = await mine.client.request(3, 'tasks/list');
    const ids = ((listed['result'] as JsonObject)['tasks'] as JsonObject[]).map((t) => t['taskId']);
    expect(ids.sort()).toEqual([a, b].sort());
    const cancelled = await mine.client.request(4, 'tasks/cancel', { taskId: a });
    expect(cancelled['result']).toMatchObject({ taskId: a, status: 'cancelled' });
  });

  it('keeps a closed session’s task alive for the next session, then lets the connection go', async () => {
    const server = taskServer();
    const { sessions, open } = await daemonSessions(server.script);
    const first = sessions[0]!;
    const id = await createTask(first, 1);
    const upstream = first.upstreams.latest('fx');
    let ended = false;
    void upstream.closed.then(() => (ended = true));
    await first.session.close();
    expect(ended).toBe(false);
    const second = await open();
    server.finish('up-1');
    const result = await second.client.request(1, 'tasks/result', { taskId: id });
    expect(result['result']).toMatchObject({ _meta: { [RELATED]: { taskId: id } } });
    expect(upstream.calledWith('tasks/result')).toHaveLength(1);
    const again = await second.client.request(2, 'tasks/get', { taskId: id });
    expect(again['result']).toMatchObject({ taskId: id, status: 'completed' });
    // Fetched, and its new owner gone: nothing needs the first session's connection.
    await second.session.close();
    await upstream.closed;
  });

  it('forgets a task once its ttl passes, and closes the connection it held', async () => {
    const { sessions, open, clock, tasks } = await daemonSessions(taskServer().script);
    const id = await createTask(sessions[0]!, 1);
    const upstream = sessions[0]!.upstreams.latest('fx');
    await sessions[0]!.session.close();
    clock.advance(59_999);
    tasks.sweep();
    let ended = false;
    void upstream.closed.then(() => (ended = true));
    await Promise.resolve();
    expect(ended).toBe(false);
    clock.advance(1);
    tasks.sweep();
    await upstream.closed;
    const later = await open();
    const gone = await later.client.request(1, 'tasks/get', { taskId: id });
    expect(errorOf(gone)).toMatchObject({ data: { coffer_code: 'TASK_NOT_FOUND' } });
  });

  it('cuts a task result over the result budget, as a relayed call’s result', async () => {
    const { script } = taskServer();
    script['tasks/result'] = () => ({ content: [{ type: 'text', text: 'x'.repeat(20_000) }] });
    const clock = new ManualClock();
    const tasks = new TaskRegistry({ clock, every: () => () => undefined });
    const resultLimit = { budgetTokens: 1_000, ttlMs: 60_000 };
    const harness = await startSession(
      { fx: script },
      { kind: 'aggregated' },
      { clock, tasks, resultLimit },
    );
    harnesses.push(harness);
    await harness.initialize(taskCapable);
    const id = await createTask(harness, 2);
    const result = await harness.client.request(3, 'tasks/result', { taskId: id });
    const text = JSON.stringify(result['result']);
    expect(text.length).toBeLessThan(5_000);
    expect(text).toContain('coffer://coffer/results/');
  });
});
