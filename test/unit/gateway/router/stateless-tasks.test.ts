import { afterEach, describe, expect, it } from 'vitest';
import { UpstreamRpcError, type JsonObject } from '../../../../src/domain/ports.js';
import { RELATED_TASK_KEY } from '../../../../src/domain/task-ids.js';
import { created, EXTENSION, start, stopTasks } from './stateless-task-harness.js';

afterEach(stopTasks);

describe('the 2026-07-28 tasks extension over a 2025-11-25 upstream', () => {
  it('declares the extension and lists task-only tools to declaring clients only', async () => {
    const { ask } = start();
    const discovered = await ask('server/discover');
    expect(discovered.result?.['capabilities']).toMatchObject({ extensions: { [EXTENSION]: {} } });
    const names = async (tasks: boolean) =>
      ((await ask('tools/list', {}, tasks)).result?.['tools'] as JsonObject[]).map(
        (t) => t['name'],
      );
    expect(await names(true)).toContain('fx__research');
    expect(await names(false)).toEqual(expect.arrayContaining(['fx__plain']));
    expect(await names(false)).not.toContain('fx__research');
  });

  it('refuses a task-only call and tasks/get from a client without the extension (-32021)', async () => {
    const { ask } = start();
    const call = await ask('tools/call', { name: 'fx__research', arguments: {} }, false);
    expect(call.error?.code).toBe(-32021);
    expect(call.error?.data).toEqual({ requiredCapabilities: { extensions: { [EXTENSION]: {} } } });
    const plain = await ask('tools/call', { name: 'fx__plain', arguments: {} }, false);
    expect(plain.result).toMatchObject({ resultType: 'complete', content: [{ text: 'plain' }] });
    expect((await ask('tasks/get', { taskId: 'fx__0' }, false)).error?.code).toBe(-32021);
  });

  it('creates the task upstream and embeds its result in tasks/get once it completed', async () => {
    const { ask, ends, upstreams } = start();
    const taskId = await created(ask);
    const upstream = upstreams.latest('fx');
    expect(upstream.calledWith('tools/call')[0]?.params?.['task']).toEqual({ ttl: 3_600_000 });
    const working = await ask('tasks/get', { taskId });
    expect(working.result).toMatchObject({ resultType: 'complete', taskId, status: 'working' });
    expect(working.result).toMatchObject({ pollIntervalMs: 500 });
    expect(upstream.calledWith('tasks/get')[0]?.params).toEqual({ taskId: 'up-1' });
    ends(() => ({
      content: [{ type: 'text', text: 'report' }],
      _meta: { [RELATED_TASK_KEY]: { taskId: 'up-1' } },
    }));
    const done = await ask('tasks/get', { taskId });
    expect(done.result).toMatchObject({ taskId, status: 'completed', resultType: 'complete' });
    expect(done.result?.['result']).toEqual({
      content: [{ type: 'text', text: 'report' }],
      resultType: 'complete',
    });
    expect(JSON.stringify(done.result)).not.toContain('up-1');
    await ask('tasks/get', { taskId });
    expect(upstream.calledWith('tasks/result')).toHaveLength(1);
  });

  it("reports an upstream task's JSON-RPC error as a failed task with that error", async () => {
    const { ask, ends } = start();
    const taskId = await created(ask);
    ends(() => {
      throw new UpstreamRpcError(-32603, 'the research failed');
    });
    const failed = await ask('tasks/get', { taskId });
    expect(failed.result).toMatchObject({
      status: 'failed',
      error: { code: -32603, message: 'the research failed' },
    });
  });

  it("turns the task's question into inputRequests and tasks/update into its answer", async () => {
    const { ask, asks } = start();
    const taskId = await created(ask);
    const questionAsked = asks({ message: 'Which sense?', requestedSchema: { type: 'object' } });
    // The question is asked on the tasks/result stream Coffer opens on seeing
    // input_required; until it arrives the task shows as working.
    const first = await ask('tasks/get', { taskId });
    expect(['working', 'input_required']).toContain(first.result?.['status']);
    await questionAsked;
    const asking = await ask('tasks/get', { taskId });
    expect(asking.result).toMatchObject({ status: 'input_required' });
    const requests = asking.result?.['inputRequests'] as JsonObject;
    const [key, request] = Object.entries(requests)[0]!;
    expect(request).toMatchObject({
      method: 'elicitation/create',
      params: { message: 'Which sense?' },
    });
    const answer = { action: 'accept', content: { sense: 'historical' } };
    const updated = await ask('tasks/update', { taskId, inputResponses: { [key]: answer, x: {} } });
    expect(updated.result).toEqual({ resultType: 'complete' });
    const done = await ask('tasks/get', { taskId });
    expect(done.result).toMatchObject({ status: 'completed' });
    expect(JSON.stringify(done.result?.['result'])).toContain('historical');
  });

  it('relays tasks/cancel with an empty acknowledgement, and refuses unknown ids', async () => {
    const { ask, upstreams } = start();
    const taskId = await created(ask);
    expect((await ask('tasks/cancel', { taskId })).result).toEqual({ resultType: 'complete' });
    expect(upstreams.latest('fx').calledWith('tasks/cancel')[0]?.params).toEqual({
      taskId: 'up-1',
    });
    expect((await ask('tasks/get', { taskId })).result).toMatchObject({ status: 'cancelled' });
    const unknown = await ask('tasks/get', { taskId: `fx__${'0'.repeat(32)}` });
    expect(unknown.error).toMatchObject({ code: -32602, data: { coffer_code: 'TASK_NOT_FOUND' } });
    const update = await ask('tasks/update', { taskId: 'nope', inputResponses: {} });
    expect(update.error?.data).toMatchObject({ coffer_code: 'TASK_NOT_FOUND' });
  });

  it('cuts an embedded result over the result budget once, and answers every poll the same', async () => {
    const { ask, ends } = start({ resultLimit: { budgetTokens: 1_000, ttlMs: 60_000 } });
    const taskId = await created(ask);
    ends(() => ({ content: [{ type: 'text', text: 'x'.repeat(20_000) }] }));
    const first = await ask('tasks/get', { taskId });
    expect(first.result).toMatchObject({ status: 'completed' });
    const embedded = JSON.stringify(first.result?.['result']);
    expect(embedded.length).toBeLessThan(5_000);
    expect(embedded).toContain('coffer://coffer/results/');
    const again = await ask('tasks/get', { taskId });
    expect(JSON.stringify(again.result?.['result'])).toBe(embedded);
  });
});
