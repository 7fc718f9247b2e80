import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import {
  CallToolResultSchema,
  CreateTaskResultSchema,
  ElicitRequestSchema,
  McpError,
  RELATED_TASK_META_KEY,
  TaskStatusNotificationSchema,
  type Task,
} from '@modelcontextprotocol/sdk/types.js';
import { eventually } from '../../support/eventually.js';
import { toolsOnceListed } from '../../support/listed-tools.js';
import { addEverything } from '../../support/everything-server.js';
import { startDaemon, type RunningDaemon } from '../../support/running-daemon.js';

/**
 * Tasks (MCP 2025-11-25) through the aggregated /mcp, against server-everything's
 * `simulate-research-query` (taskSupport "required", four one-second stages), with the
 * SDK's own task client.
 */

const research = 'everything__simulate-research-query';
const taskClient = { tasks: { list: {}, cancel: {}, requests: {} } };
const coffersId = /^everything__[0-9a-f]{32}$/;

let daemon: RunningDaemon;

beforeAll(async () => {
  daemon = await startDaemon();
  await addEverything(daemon);
});

afterAll(async () => {
  await daemon?.stop();
});

/** A client that runs tasks, its status notifications collected. */
async function tasksClient(name: string): Promise<{ client: Client; statuses: Task[] }> {
  const client = await daemon.client({ capabilities: taskClient, name });
  const statuses: Task[] = [];
  client.setNotificationHandler(TaskStatusNotificationSchema, (note) => {
    statuses.push(note.params);
  });
  await toolsOnceListed(client, [research]);
  return { client, statuses };
}

/** Starts the research task and returns its (Coffer) id without waiting for it. */
async function startResearch(client: Client, topic: string): Promise<string> {
  const created = await client.request(
    {
      method: 'tools/call',
      params: { name: research, arguments: { topic }, task: { ttl: 120_000 } },
    },
    CreateTaskResultSchema,
  );
  return created.task.taskId;
}

async function refusal(attempt: Promise<unknown>): Promise<McpError> {
  const error = await attempt.then(
    () => undefined,
    (failure: unknown) => failure,
  );
  expect(error).toBeInstanceOf(McpError);
  return error as McpError;
}

describe('tasks through /mcp', () => {
  it('lists the task-only tool to task clients only', async () => {
    await tasksClient('lister');
    const plain = await daemon.client({ name: 'no-tasks' });
    const names = await toolsOnceListed(plain, ['everything__echo']);
    expect(names).not.toContain(research);
  });

  it('runs simulate-research-query as a task to its result, with status notifications', async () => {
    const { client, statuses } = await tasksClient('runner');
    const seen: string[] = [];
    let taskId = '';
    let report = '';
    const stream = client.experimental.tasks.callToolStream(
      { name: research, arguments: { topic: 'gateways' } },
      CallToolResultSchema,
      { task: { ttl: 120_000 } },
    );
    for await (const message of stream) {
      seen.push(message.type);
      if (message.type === 'taskCreated') taskId = message.task.taskId;
      if (message.type === 'result') report = JSON.stringify(message.result.content);
      if (message.type === 'error') throw message.error;
    }
    expect(taskId).toMatch(coffersId);
    expect(seen[0]).toBe('taskCreated');
    expect(seen.at(-1)).toBe('result');
    expect(report).toContain('Research Report: gateways');
    await eventually(() =>
      expect(statuses).toContainEqual(expect.objectContaining({ taskId, status: 'completed' })),
    );
    expect(statuses.every((status) => status.taskId === taskId)).toBe(true);
  });

  it('asks the client through tasks/result when the task needs input, under the Coffer id', async () => {
    const client = await daemon.client({
      capabilities: { ...taskClient, elicitation: {} },
      name: 'answerer',
    });
    const asked: unknown[] = [];
    client.setRequestHandler(ElicitRequestSchema, (request) => {
      asked.push(request.params._meta?.[RELATED_TASK_META_KEY]);
      return { action: 'accept', content: { interpretation: 'historical' } };
    });
    await toolsOnceListed(client, [research]);
    let taskId = '';
    let report = '';
    for await (const message of client.experimental.tasks.callToolStream(
      { name: research, arguments: { topic: 'ambiguity', ambiguous: true } },
      CallToolResultSchema,
      { task: { ttl: 120_000 } },
    )) {
      if (message.type === 'taskCreated') taskId = message.task.taskId;
      if (message.type === 'result') report = JSON.stringify(message.result.content);
      if (message.type === 'error') throw message.error;
    }
    expect(report).toContain('ambiguity (historical)');
    expect(asked).toEqual([{ taskId }]);
  });

  it('cancels a task', async () => {
    const { client } = await tasksClient('canceller');
    const taskId = await startResearch(client, 'cancel me');
    const cancelled = await client.experimental.tasks.cancelTask(taskId);
    expect(cancelled).toMatchObject({ taskId, status: 'cancelled' });
    expect(await client.experimental.tasks.getTask(taskId)).toMatchObject({ status: 'cancelled' });
  });

  it("refuses another session's task id, and lists only the caller's tasks", async () => {
    const owner = await tasksClient('owner');
    const other = await tasksClient('other');
    const taskId = await startResearch(owner.client, 'mine');
    const refused = await refusal(other.client.experimental.tasks.getTask(taskId));
    expect(refused.code).toBe(-32602);
    expect(refused.data).toMatchObject({ coffer_code: 'TASK_NOT_FOUND' });
    await refusal(other.client.experimental.tasks.cancelTask(taskId));
    const theirs = await other.client.experimental.tasks.listTasks();
    expect(theirs.tasks.map((task) => task.taskId)).not.toContain(taskId);
    const mine = await owner.client.experimental.tasks.listTasks();
    expect(mine.tasks.map((task) => task.taskId)).toEqual([taskId]);
  });

  it('keeps a task whose session closed, and gives its result to the next session', async () => {
    const first = await tasksClient('leaver');
    const taskId = await startResearch(first.client, 'survival');
    await (first.client.transport as StreamableHTTPClientTransport).terminateSession();
    await first.client.close();
    const next = await tasksClient('returner');
    const result = await next.client.experimental.tasks.getTaskResult(taskId, CallToolResultSchema);
    expect(JSON.stringify(result.content)).toContain('Research Report: survival');
    expect(await next.client.experimental.tasks.getTask(taskId)).toMatchObject({
      status: 'completed',
    });
  });
});
