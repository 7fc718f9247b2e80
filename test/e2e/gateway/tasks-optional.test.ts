import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually } from '../../support/eventually.js';
import { modernEnvelope, postModern } from '../../support/modern-post.js';
import { repoRoot, startDaemon, type RunningDaemon } from '../../support/running-daemon.js';

/**
 * A tool its upstream may run either way (`taskSupport: "optional"`), called on /mcp by
 * 2026-07-28 clients, against a real 2025-11-25 server of task tools
 * (test/fixtures/task-tools-server.mjs): with the tasks extension, a quick call answers
 * with its result and a slow one with a task; without it, a plain call.
 */

const EXTENSION = 'io.modelcontextprotocol/tasks';

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- JSON of any shape
type Json = Record<string, any>;
type Answer = { result?: Json; error?: { code: number; message: string } };

let daemon: RunningDaemon;
let nextId = 1;

async function send(method: string, params: Json, tasks = true): Promise<Answer> {
  const _meta = modernEnvelope('tasks-optional', tasks ? { [EXTENSION]: {} } : {});
  const request = { jsonrpc: '2.0' as const, id: nextId++, method, params: { ...params, _meta } };
  return (await postModern(daemon, request, '/mcp')) as Answer;
}

const compute = (seconds: number, tasks = true) =>
  send('tools/call', { name: 'jobs__slow_compute', arguments: { seconds, label: 'e2e' } }, tasks);

/** The result a created task embeds once tasks/get finds it completed. */
async function ended(created: Answer): Promise<Json | undefined> {
  const taskId = String(created.result?.['taskId']);
  const done = await eventually(async () => {
    const polled = await send('tasks/get', { taskId });
    expect(polled.result?.['status']).toBe('completed');
    return polled.result!;
  });
  return done['result'] as Json | undefined;
}

beforeAll(async () => {
  daemon = await startDaemon();
  const added = await daemon.api('POST', '/servers', {
    name: 'jobs',
    transport: 'stdio',
    command: process.execPath,
    args: [join(repoRoot, 'test', 'fixtures', 'task-tools-server.mjs')],
  });
  expect(added.status).toBe(201);
});

afterAll(async () => {
  await daemon?.stop();
});

describe('a tool that may run as a task, on /mcp', () => {
  it('answers a quick call with its result', async () => {
    const quick = await compute(0);
    expect(quick.error).toBeUndefined();
    // At once when the task ends within Coffer's short wait, as it does on an idle machine;
    // on one too busy for that, through the task. Which one is the unit tests' to pin
    // down (stateless-task-choice.test.ts, on a clock they run by hand), not the load's.
    const result = quick.result?.['resultType'] === 'task' ? await ended(quick) : quick.result;
    expect(result).toMatchObject({
      resultType: 'complete',
      content: [{ type: 'text', text: 'computed e2e in 0s' }],
    });
    expect(result?.['taskId']).toBeUndefined();
  });

  it('answers a slow call with a task whose result tasks/get embeds, and acknowledges its cancel after the end', async () => {
    const created = await compute(1);
    expect(created.result).toMatchObject({ resultType: 'task', status: 'working' });
    const taskId = String(created.result?.['taskId']);
    expect(taskId).toMatch(/^jobs__[0-9a-f]{32}$/);
    expect(await ended(created)).toMatchObject({ content: [{ text: 'computed e2e in 1s' }] });
    // The 2025-11-25 upstream refuses to cancel an ended task; the extension acknowledges.
    expect((await send('tasks/cancel', { taskId })).result).toEqual({ resultType: 'complete' });
    expect((await send('tasks/get', { taskId })).result).toMatchObject({ status: 'completed' });
  });

  it('runs as a plain call for a client without the extension, and ignores a 2025 task param', async () => {
    const plain = await compute(0, false);
    expect(plain.result).toMatchObject({ resultType: 'complete', content: [{ text: /0s/ }] });
    const greeted = await send('tools/call', {
      name: 'jobs__greet',
      arguments: { name: 'Ada' },
      task: { ttl: 60_000 },
    });
    expect(greeted.error).toBeUndefined();
    expect(greeted.result).toMatchObject({ content: [{ text: 'Hello, Ada!' }] });
  });
});
