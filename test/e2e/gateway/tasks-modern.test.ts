import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ShimClient } from '../../integration/shim/support/shim-client.js';
import { eventually } from '../../support/eventually.js';
import { addEverything } from '../../support/everything-server.js';
import { modernEnvelope, postModern } from '../../support/modern-post.js';
import { startDaemon, type RunningDaemon } from '../../support/running-daemon.js';

/**
 * The 2026-07-28 tasks extension (io.modelcontextprotocol/tasks) through /mcp and
 * `coffer shim`, against server-everything's `simulate-research-query` (a 2025-11-25
 * upstream task tool, taskSupport "required", four one-second stages), driven on the
 * wire as a 2026-07-28 client sends it: the envelope in `_meta`, the standard headers.
 */

const EXTENSION = 'io.modelcontextprotocol/tasks';
const research = 'everything__simulate-research-query';
const coffersId = /^everything__[0-9a-f]{32}$/;

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- JSON of any shape
type Json = Record<string, any>;
type Answer = { result?: Json; error?: { code: number; message: string; data?: Json } };
type Send = (method: string, params: Record<string, unknown>, tasks?: boolean) => Promise<Answer>;

function envelope(tasks: boolean) {
  return modernEnvelope('tasks-modern', tasks ? { [EXTENSION]: {} } : {});
}

let daemon: RunningDaemon;
let nextId = 1;

/** One 2026-07-28 request over HTTP (on /mcp unless told), with its standard headers. */
async function overHttp(
  method: string,
  params: Record<string, unknown>,
  tasks = true,
  path = '/mcp',
): Promise<Answer> {
  return (await postModern(
    daemon,
    { jsonrpc: '2.0', id: nextId++, method, params: { ...params, _meta: envelope(tasks) } },
    path,
  )) as Answer;
}

beforeAll(async () => {
  daemon = await startDaemon();
  await addEverything(daemon);
});

afterAll(async () => {
  await daemon?.stop();
});

async function toolNames(send: Send, tasks: boolean): Promise<string[]> {
  const listed = await send('tools/list', {}, tasks);
  return (listed.result!['tools'] as { name: string }[]).map((tool) => tool.name);
}

/** Starts the research task and returns the CreateTaskResult. */
async function startResearch(send: Send, args: Record<string, unknown>) {
  await eventually(async () => expect(await toolNames(send, true)).toContain(research));
  const created = await send('tools/call', { name: research, arguments: args });
  expect(created.error).toBeUndefined();
  expect(created.result).toMatchObject({ resultType: 'task', status: 'working' });
  expect(created.result!['taskId']).toMatch(coffersId);
  return created.result as { taskId: string; ttlMs: number | null };
}

/** Polls tasks/get until the task is in `status`; returns that answer. */
async function polledUntil(send: Send, taskId: string, status: string): Promise<Json> {
  return eventually(async () => {
    const polled = await send('tasks/get', { taskId });
    expect(polled.error).toBeUndefined();
    expect(polled.result?.['status']).toBe(status);
    return polled.result!;
  });
}

describe('the 2026-07-28 tasks extension on /mcp', () => {
  it('declares the extension and shows the task-only tool to declaring clients only', async () => {
    const discovered = await overHttp('server/discover', {});
    expect(discovered.result!['capabilities'].extensions).toMatchObject({ [EXTENSION]: {} });
    // The single-server endpoint declares it because server-everything runs tool tasks.
    const single = await overHttp('server/discover', {}, true, '/servers/everything/mcp');
    // (and only the tasks extension: server-everything serves no skills).
    expect(single.result!['capabilities'].extensions).toEqual({ [EXTENSION]: {} });
    await eventually(async () => expect(await toolNames(overHttp, true)).toContain(research));
    const plain = await toolNames(overHttp, false);
    expect(plain).toContain('everything__echo');
    expect(plain).not.toContain(research);
    const refused = await overHttp('tools/call', { name: research, arguments: {} }, false);
    expect(refused.error?.code).toBe(-32021);
    expect(refused.error?.data).toEqual({
      requiredCapabilities: { extensions: { [EXTENSION]: {} } },
    });
  });

  it('runs simulate-research-query as a task and embeds its report once completed', async () => {
    const { taskId, ttlMs } = await startResearch(overHttp, { topic: 'modern gateways' });
    expect(ttlMs).toBeGreaterThan(0);
    const done = await polledUntil(overHttp, taskId, 'completed');
    expect(done.resultType).toBe('complete');
    expect(done.result.resultType).toBe('complete');
    expect(JSON.stringify(done.result.content)).toContain('Research Report: modern gateways');
    expect(JSON.stringify(done)).not.toContain('io.modelcontextprotocol/related-task');
  });

  it('asks for input through inputRequests and resumes with tasks/update', async () => {
    const { taskId } = await startResearch(overHttp, { topic: 'ambiguity', ambiguous: true });
    const asking = await polledUntil(overHttp, taskId, 'input_required');
    const [key, request] = Object.entries(asking.inputRequests as Record<string, unknown>)[0]!;
    expect(request).toMatchObject({ method: 'elicitation/create' });
    const answer = { action: 'accept', content: { interpretation: 'historical' } };
    const updated = await overHttp('tasks/update', { taskId, inputResponses: { [key]: answer } });
    expect(updated.result).toEqual({ resultType: 'complete' });
    const done = await polledUntil(overHttp, taskId, 'completed');
    expect(JSON.stringify(done.result.content)).toContain('ambiguity (historical)');
  });

  it('cancels a task, and answers an unknown id TASK_NOT_FOUND', async () => {
    const { taskId } = await startResearch(overHttp, { topic: 'cancel me' });
    const cancelled = await overHttp('tasks/cancel', { taskId });
    expect(cancelled.result).toEqual({ resultType: 'complete' });
    await polledUntil(overHttp, taskId, 'cancelled');
    const unknown = await overHttp('tasks/get', { taskId: `everything__${'0'.repeat(32)}` });
    expect(unknown.error).toMatchObject({ code: -32602, data: { coffer_code: 'TASK_NOT_FOUND' } });
  });
});

describe('the 2026-07-28 tasks extension through coffer shim', () => {
  it('runs the research task to its report', async () => {
    const shim = ShimClient.spawn(daemon.env);
    const overShim: Send = (method, params, tasks = true) =>
      shim.request(method, { ...params, _meta: envelope(tasks) });
    try {
      const { taskId } = await startResearch(overShim, { topic: 'shims' });
      const done = await polledUntil(overShim, taskId, 'completed');
      expect(JSON.stringify(done.result.content)).toContain('Research Report: shims');
    } finally {
      await shim.close();
    }
  });

  it('sends notifications/tasks to the listen stream that named the task, and no other', async () => {
    const shim = ShimClient.spawn(daemon.env);
    const overShim: Send = (method, params, tasks = true) =>
      shim.request(method, { ...params, _meta: envelope(tasks) });
    const listen = (id: string, taskIds: string[]) =>
      shim.send({
        jsonrpc: '2.0',
        id,
        method: 'subscriptions/listen',
        params: { notifications: { taskIds }, _meta: envelope(true) },
      });
    const on = (id: string, method: string) => (message: Json) =>
      message['method'] === method &&
      message['params']?._meta?.['io.modelcontextprotocol/subscriptionId'] === id;
    try {
      const { taskId } = await startResearch(overShim, { topic: 'listening' });
      listen('mine', [taskId]);
      listen('other', [`everything__${'0'.repeat(32)}`]);
      const ack = await shim.waitFor(on('mine', 'notifications/subscriptions/acknowledged'));
      expect(ack['params'].notifications).toEqual({ taskIds: [taskId] });
      await shim.waitFor(on('other', 'notifications/subscriptions/acknowledged'));
      // server-everything announces each stage and the end; the end carries the report.
      const done = await shim.waitFor(
        (message) =>
          on('mine', 'notifications/tasks')(message) && message['params'].status === 'completed',
      );
      expect(done['params']).toMatchObject({ taskId, status: 'completed' });
      expect(JSON.stringify(done['params'].result.content)).toContain('Research Report: listening');
      const tasks = shim.messages.filter((message) => message['method'] === 'notifications/tasks');
      expect(tasks.every((message) => on('mine', 'notifications/tasks')(message))).toBe(true);
      expect(JSON.stringify(tasks)).not.toMatch(/"taskId":"(?!everything__)/);
      expect(shim.messages.some((m) => m['method'] === 'notifications/tasks/status')).toBe(false);
    } finally {
      await shim.close();
    }
  });
});
