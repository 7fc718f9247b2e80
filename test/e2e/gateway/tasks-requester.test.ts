import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import {
  createApplicationInputHandler,
  createTaskSessionFromClient,
  resultFromTaskOutcome,
  type JsonRpcResponse,
  type TaskEnabledSession,
  type WithTasksOptions,
} from '@modelcontextprotocol/ext-tasks/client';
import { eventually } from '../../support/eventually.js';
import { addEverything } from '../../support/everything-server.js';
import { postModern } from '../../support/modern-post.js';
import { startDaemon, type RunningDaemon } from '../../support/running-daemon.js';

/**
 * The official Tasks extension requester (`@modelcontextprotocol/ext-tasks`) against
 * Coffer's /mcp, with a v2 SDK client pinned to 2026-07-28: it finds the extension in
 * server/discover, calls server-everything's task-only `simulate-research-query`, polls
 * the task and answers its question through tasks/update, all by its own logic.
 */

const VERSION = '2026-07-28';
const EXTENSION = 'io.modelcontextprotocol/tasks';
const research = 'everything__simulate-research-query';
const clientInfo = { name: 'ext-tasks-requester', version: '1.0.0' };

let daemon: RunningDaemon;
const clients: Client[] = [];

let nextId = 1;

/**
 * The package's raw path for task traffic (the SDK's typed requests reject task
 * shapes): the host frames the request (jsonrpc, id) and POSTs it with the standard
 * headers; the JSON-RPC answer goes back.
 */
async function rawDispatch(request: unknown): Promise<JsonRpcResponse> {
  const message = {
    jsonrpc: '2.0' as const,
    id: nextId++,
    ...(request as { method: string; params?: Record<string, unknown> }),
  };
  const answer = (await postModern(daemon, message)) as { result?: never; error?: never };
  return answer.error === undefined
    ? { kind: 'result', result: answer.result! }
    : { kind: 'error', error: answer.error };
}

async function requester(options: WithTasksOptions = {}): Promise<TaskEnabledSession> {
  const client = new Client(clientInfo, { versionNegotiation: { mode: { pin: VERSION } } });
  clients.push(client);
  await client.connect(
    new StreamableHTTPClientTransport(new URL(`${daemon.baseUrl}/mcp`), {
      requestInit: { headers: { authorization: `Bearer ${daemon.token}` } },
    }),
  );
  return createTaskSessionFromClient(client, {
    ...options,
    endpointId: 'coffer-mcp',
    rawDispatch,
    v2RequestFraming: {
      protocolVersion: VERSION,
      clientInfo,
      clientCapabilities: { elicitation: {}, extensions: { [EXTENSION]: {} } },
    },
  });
}

beforeAll(async () => {
  daemon = await startDaemon();
  await addEverything(daemon);
  // server-everything is started (and its tools listed) before the requester calls.
  await eventually(async () => {
    const answer = await rawDispatch({
      method: 'tools/list',
      params: {
        _meta: {
          'io.modelcontextprotocol/protocolVersion': VERSION,
          'io.modelcontextprotocol/clientCapabilities': { extensions: { [EXTENSION]: {} } },
        },
      },
    });
    expect(JSON.stringify(answer)).toContain(research);
  });
});

afterAll(async () => {
  await Promise.all(clients.map((client) => client.close()));
  await daemon?.stop();
});

describe('the official tasks requester through /mcp', () => {
  it('runs simulate-research-query as a task to its report', async () => {
    const session = await requester();
    try {
      const execution = await session.callTool(research, { topic: 'requesters' });
      const { outcome } = await execution.settle();
      const result = resultFromTaskOutcome(outcome);
      expect(JSON.stringify(result)).toContain('Research Report: requesters');
    } finally {
      await session.close();
    }
  });

  it("answers the task's question through its input handler", async () => {
    const asked: unknown[] = [];
    const session = await requester({
      onInputRequest: createApplicationInputHandler({
        elicitation: (request) => {
          asked.push(request.params['message']);
          return { action: 'accept', content: { interpretation: 'historical' } };
        },
        sampling: () => Promise.reject(new Error('no sampling here')),
        roots: () => ({ roots: [] }),
      }),
    });
    try {
      const execution = await session.callTool(research, { topic: 'ambiguity', ambiguous: true });
      const { outcome } = await execution.settle();
      expect(JSON.stringify(resultFromTaskOutcome(outcome))).toContain('ambiguity (historical)');
      expect(asked).toHaveLength(1);
    } finally {
      await session.close();
    }
  });
});
