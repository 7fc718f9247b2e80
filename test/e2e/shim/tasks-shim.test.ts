import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ShimClient } from '../../integration/shim/support/shim-client.js';
import { addEverything } from '../../support/everything-server.js';
import { createCofferHome, type CofferHome } from './support/coffer-home.js';

/**
 * Tasks (MCP 2025-11-25) through `coffer shim`, against server-everything's
 * `simulate-research-query`: the shim's sessions are the daemon's, so task ids, status
 * notifications and a task outliving its shim work there as on /mcp.
 */

const research = 'everything__simulate-research-query';
const taskClient = { tasks: { list: {}, cancel: {}, requests: {} } };

let coffer: CofferHome;
const shims: ShimClient[] = [];

async function shim(): Promise<ShimClient> {
  const started = ShimClient.spawn(coffer.env);
  shims.push(started);
  await started.initialize(taskClient);
  return started;
}

/** Starts the research task; a call by name waits for server-everything to start. */
async function startResearch(client: ShimClient, topic: string): Promise<string> {
  const created = await client.request('tools/call', {
    name: research,
    arguments: { topic },
    task: { ttl: 120_000 },
  });
  expect(created.error).toBeUndefined();
  return created.result.task.taskId as string;
}

beforeAll(async () => {
  coffer = await createCofferHome();
  await shim();
  await addEverything(coffer);
});

afterAll(async () => {
  await Promise.all(shims.map((client) => client.close()));
  expect(await coffer.cleanup(), 'processes left behind').toEqual([]);
});

describe('tasks through coffer shim', () => {
  it('runs a task to its result, with status notifications, under an id naming its server', async () => {
    const client = await shim();
    const taskId = await startResearch(client, 'shims');
    expect(taskId).toMatch(/^everything__[0-9a-f]{32}$/);
    const result = await client.request('tasks/result', { taskId });
    expect(JSON.stringify(result.result)).toContain('Research Report: shims');
    expect(result.result._meta['io.modelcontextprotocol/related-task']).toEqual({ taskId });
    await client.waitFor(
      (message) =>
        message.method === 'notifications/tasks/status' &&
        message.params.taskId === taskId &&
        message.params.status === 'completed',
    );
  });

  it("refuses another live shim's task, and hands it over once that shim is gone", async () => {
    const owner = await shim();
    const other = await shim();
    const taskId = await startResearch(owner, 'handover');
    const refused = await other.request('tasks/get', { taskId });
    expect(refused.error).toMatchObject({ code: -32602, data: { coffer_code: 'TASK_NOT_FOUND' } });
    await owner.close();
    // The daemon closes the shim's session once its connection ends: then the task is free.
    const result = await waitForHandover(other, taskId);
    expect(JSON.stringify(result)).toContain('Research Report: handover');
  });
});

/** tasks/result from `client`, retried while the owner's session is still closing. */
async function waitForHandover(client: ShimClient, taskId: string): Promise<unknown> {
  for (;;) {
    const answer = await client.request('tasks/result', { taskId });
    if (answer.error?.data?.coffer_code !== 'TASK_NOT_FOUND') {
      expect(answer.error).toBeUndefined();
      return answer.result;
    }
    await new Promise<void>((done) => setImmediate(done));
  }
}
