import { afterEach, describe, expect, it } from 'vitest';
import type { JsonObject } from '../../../../src/domain/ports.js';
import { created, envelope, start, stopTasks } from './stateless-task-harness.js';

afterEach(stopTasks);

/** The listen streams of one client, and what reached each. */
function listener(client: ReturnType<typeof start>) {
  const stream = (id: number, method?: string) =>
    client.sent.filter((message) => {
      const meta = (message['params'] as JsonObject | undefined)?.['_meta'] as JsonObject;
      return (
        meta?.['io.modelcontextprotocol/subscriptionId'] === id &&
        (method === undefined || message['method'] === method)
      );
    });
  const listen = (id: number, notifications: JsonObject, tasks = true) =>
    client.router.receive({
      jsonrpc: '2.0',
      id,
      method: 'subscriptions/listen',
      params: { notifications, _meta: envelope(tasks) },
    });
  const next = async (id: number, method: string): Promise<JsonObject> => {
    for (;;) {
      const found = stream(id, method)[0];
      if (found !== undefined) return found['params'] as JsonObject;
      await new Promise<void>((resolve) => client.wake.push(resolve));
    }
  };
  return { listen, next, stream };
}

const ACK = 'notifications/subscriptions/acknowledged';

describe('notifications/tasks on subscriptions/listen (2026-07-28 tasks extension)', () => {
  it("sends the upstream's status as the whole Task, to the streams that named its id only", async () => {
    const client = start();
    const taskId = await created(client.ask);
    const { listen, next, stream } = listener(client);
    const other = `fx__${'0'.repeat(32)}`;
    listen(100, { taskIds: [taskId, taskId, 7] });
    listen(101, { taskIds: [other], toolsListChanged: true });
    listen(102, { taskIds: [taskId] }, false);
    expect((await next(100, ACK))['notifications']).toEqual({ taskIds: [taskId] });
    expect((await next(101, ACK))['notifications']).toEqual({
      toolsListChanged: true,
      taskIds: [other],
    });
    // Without the extension declared the filter names no task, and there is nothing to wait for.
    expect((await next(102, ACK))['notifications']).toEqual({});
    client.ends(() => ({ content: [{ type: 'text', text: 'report' }] }));
    const peer = client.upstreams.latest('fx').context.peer;
    peer.notify('notifications/tasks/status', { taskId: 'up-1', status: 'completed' });
    peer.notify('notifications/tasks/status', { taskId: 'someone-else', status: 'working' });
    const task = await next(100, 'notifications/tasks');
    expect(task).toMatchObject({
      taskId,
      status: 'completed',
      ttlMs: 60_000,
      result: { content: [{ type: 'text', text: 'report' }], resultType: 'complete' },
    });
    expect(task).not.toHaveProperty('resultType');
    expect(stream(101, 'notifications/tasks')).toEqual([]);
    expect(stream(102)).toHaveLength(1);
    const everything = JSON.stringify(client.sent);
    expect(everything).not.toContain('up-1');
    expect(everything).not.toContain('someone-else');
    expect(everything).not.toContain('notifications/tasks/status');
  });

  it("announces the task's question once it arrived, without the client polling", async () => {
    const client = start();
    const taskId = await created(client.ask);
    const { listen, next, stream } = listener(client);
    listen(100, { taskIds: [taskId] });
    await next(100, ACK);
    const questionAsked = client.asks({ message: 'Which sense?', requestedSchema: {} });
    // The question comes on the tasks/result stream only after the input_required
    // notification went out, as with a real upstream: nobody polls after that.
    const original = client.script['tasks/result']!;
    let ask!: () => void;
    const asked = new Promise<void>((resolve) => (ask = resolve));
    client.script['tasks/result'] = async (params, options) => {
      await asked;
      return original(params, options);
    };
    const peer = client.upstreams.latest('fx').context.peer;
    peer.notify('notifications/tasks/status', { taskId: 'up-1', status: 'input_required' });
    expect(await next(100, 'notifications/tasks')).toMatchObject({ status: 'working' });
    ask();
    await questionAsked;
    for (;;) {
      const asking = stream(100, 'notifications/tasks')
        .map((m) => m['params'] as JsonObject)
        .find((task) => task['status'] === 'input_required');
      if (asking !== undefined) {
        expect(Object.values(asking['inputRequests'] as JsonObject)).toEqual([
          expect.objectContaining({ method: 'elicitation/create' }),
        ]);
        break;
      }
      await new Promise<void>((resolve) => client.wake.push(resolve));
    }
    // Before the question arrives the task shows working (never input_required without it).
    for (const m of stream(100, 'notifications/tasks')) {
      const task = m['params'] as JsonObject;
      expect(task['status'] === 'working' || task['inputRequests'] !== undefined).toBe(true);
    }
  });

  it('asks the upstream nothing for a status nobody follows', async () => {
    const client = start();
    await created(client.ask);
    const { listen, next } = listener(client);
    listen(100, { toolsListChanged: true });
    await next(100, ACK);
    const upstream = client.upstreams.latest('fx');
    upstream.context.peer.notify('notifications/tasks/status', {
      taskId: 'up-1',
      status: 'working',
    });
    // A tools/list takes several turns of the event loop: a tasks/get the notification
    // had queued would have reached the upstream before its answer.
    await client.ask('tools/list');
    expect(upstream.calledWith('tasks/get')).toEqual([]);
    expect(client.sent.filter((m) => m['method'] === 'notifications/tasks')).toEqual([]);
  });
});
