import { afterEach, describe, expect, it } from 'vitest';
import { UpstreamRpcError } from '../../../../src/domain/ports.js';
import { RELATED_TASK_KEY } from '../../../../src/domain/task-ids.js';
import { coffersId, created, start, stopTasks } from './stateless-task-harness.js';

afterEach(stopTasks);

/**
 * A tool its upstream runs either way (`taskSupport: "optional"`), called by a 2026-07-28
 * client: with the extension it runs as an upstream task, answered with its result when
 * the task ends at once and with the task when it does not; without, as a plain call.
 */
describe('a tool that may run as a task', () => {
  it('answers with the result when the task ends within the short wait', async () => {
    const { ask, ends, upstreams, timers } = start();
    ends(() => ({
      content: [{ type: 'text', text: 'quick answer' }],
      _meta: { [RELATED_TASK_KEY]: { taskId: 'up-1' } },
    }));
    const answer = await ask('tools/call', { name: 'fx__quick', arguments: {} });
    expect(answer.result).toEqual({
      content: [{ type: 'text', text: 'quick answer' }],
      resultType: 'complete',
    });
    const upstream = upstreams.latest('fx');
    expect(upstream.calledWith('tools/call')[0]?.params?.['task']).toEqual({ ttl: 3_600_000 });
    expect(upstream.calledWith('tasks/result')).toHaveLength(1);
    // The wait's timer went with the answer.
    expect(timers.pending()).toBe(0);
  });

  it('cuts a result it answers at once when it is over the budget, as a plain call’s', async () => {
    const { ask, ends } = start({ resultLimit: { budgetTokens: 1_000, ttlMs: 60_000 } });
    ends(() => ({ content: [{ type: 'text', text: 'x'.repeat(20_000) }] }));
    const answer = await ask('tools/call', { name: 'fx__quick', arguments: {} });
    expect(answer.error).toBeUndefined();
    expect(answer.result?.['resultType']).toBe('complete');
    expect(JSON.stringify(answer.result).length).toBeLessThan(5_000);
    expect(JSON.stringify(answer.result)).toContain('coffer://coffer/results/');
  });

  it('answers with the task when it has not ended by then, and tasks/get embeds its result later', async () => {
    const { ask, holds, upstreams, timers } = start();
    const finish = holds();
    const calling = ask('tools/call', { name: 'fx__quick', arguments: {} });
    await timers.scheduled();
    timers.due();
    const { result } = await calling;
    expect(result).toMatchObject({ resultType: 'task', status: 'working', ttlMs: 60_000 });
    const taskId = String(result?.['taskId']);
    expect(taskId).toMatch(coffersId);
    expect(JSON.stringify(result)).not.toContain('up-1');
    finish({ content: [{ type: 'text', text: 'slow answer' }] });
    const done = await ask('tasks/get', { taskId });
    expect(done.result).toMatchObject({ taskId, status: 'completed' });
    expect(done.result?.['result']).toEqual({
      content: [{ type: 'text', text: 'slow answer' }],
      resultType: 'complete',
    });
    // The tasks/result the wait opened is the one that brought the result.
    expect(upstreams.latest('fx').calledWith('tasks/result')).toHaveLength(1);
  });

  it('answers with the task when it fails at once: the failure is tasks/get’s to tell', async () => {
    const { ask, ends } = start();
    ends(() => {
      throw new UpstreamRpcError(-32603, 'the job broke');
    });
    const { result } = await ask('tools/call', { name: 'fx__quick', arguments: {} });
    expect(result).toMatchObject({ resultType: 'task' });
    const failed = await ask('tasks/get', { taskId: String(result?.['taskId']) });
    expect(failed.result).toMatchObject({
      status: 'failed',
      error: { code: -32603, message: 'the job broke' },
    });
  });

  it('runs as a plain call where its upstream declares no task-augmented tools/call', async () => {
    const { ask, upstreams } = start({ declaresTasks: false });
    const answer = await ask('tools/call', { name: 'fx__quick', arguments: {} });
    expect(answer.result).toMatchObject({ resultType: 'complete', content: [{ text: 'plain' }] });
    const call = upstreams.latest('fx').calledWith('tools/call')[0];
    expect(call?.params?.['task']).toBeUndefined();
  });

  it('runs as a plain call for a client without the extension', async () => {
    const { ask, upstreams } = start();
    const answer = await ask('tools/call', { name: 'fx__quick', arguments: {} }, false);
    expect(answer.result).toMatchObject({ resultType: 'complete', content: [{ text: 'plain' }] });
    const call = upstreams.latest('fx').calledWith('tools/call')[0];
    expect(call?.params?.['task']).toBeUndefined();
  });

  it('drops a 2025-11-25 `task` param a 2026-07-28 client sends: only Coffer asks for a task', async () => {
    const { ask, upstreams } = start();
    const task = { ttl: 60_000, pollInterval: 100 };
    const plain = await ask('tools/call', { name: 'fx__plain', arguments: {}, task });
    expect(plain.result).toMatchObject({ resultType: 'complete', content: [{ text: 'plain' }] });
    await ask('tools/call', { name: 'fx__quick', arguments: {}, task }, false);
    const calls = upstreams.latest('fx').calledWith('tools/call');
    expect(calls.map((call) => call.params?.['task'])).toEqual([undefined, undefined]);
  });
});

describe('tasks/cancel of a task that already ended', () => {
  it('is acknowledged as the extension wants, where the 2025-11-25 upstream refuses it', async () => {
    const { ask, ends } = start();
    const taskId = await created(ask);
    ends(() => ({ content: [{ type: 'text', text: 'done' }] }));
    expect((await ask('tasks/cancel', { taskId })).result).toEqual({ resultType: 'complete' });
    expect((await ask('tasks/get', { taskId })).result).toMatchObject({ status: 'completed' });
  });

  it("still relays the upstream's refusal of a task that has not ended", async () => {
    const { ask, script } = start();
    const taskId = await created(ask);
    script['tasks/cancel'] = () => {
      throw new UpstreamRpcError(-32602, 'no such task here');
    };
    const refused = await ask('tasks/cancel', { taskId });
    expect(refused.error?.code).toBe(-32602);
  });
});
