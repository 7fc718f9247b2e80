import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { once } from 'node:events';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { waitUntil } from '../../integration/shim/support/processes.js';
import { ShimClient } from '../../integration/shim/support/shim-client.js';
import { addEverything } from '../../support/everything-server.js';
import { cofferBin } from '../../support/running-daemon.js';
import { shimSuite } from './support/shim-suite.js';

/**
 * The shim between a raw stdio client and the real daemon, with the fixture MCP server as
 * upstream: server→client requests and progress cross both hops, and a closing client
 * leaves no session behind.
 */

const { shim, home } = shimSuite({ fixture: true });

describe('coffer shim with the real daemon', () => {
  it('exits 0, without a stack trace, when its reader goes away with answers still coming', async () => {
    // server-everything: a long tool list, and more messages on its heels.
    await addEverything(home(), 'ev');
    const child = spawn(process.execPath, [cofferBin, 'shim'], { env: home().env });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const exited = new Promise((resolve) =>
      child.once('exit', (code, signal) => resolve({ code, signal })),
    );
    const hello = { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'head' } };
    const lines = [
      { jsonrpc: '2.0', id: 1, method: 'initialize', params: hello },
      { jsonrpc: '2.0', method: 'notifications/initialized' },
      { jsonrpc: '2.0', id: 2, method: 'tools/list' },
    ];
    // `printf … | coffer shim | head -c 300`: stdin ends, the reader takes a little and goes.
    child.stdin.end(lines.map((line) => `${JSON.stringify(line)}\n`).join(''));
    await once(child.stdout, 'data');
    child.stdout.destroy();
    expect(await exited).toEqual({ code: 0, signal: null });
    expect(stderr).not.toContain('Unhandled');
    expect((await home().api('DELETE', '/servers/ev')).status).toBe(204);
  });

  it('relays a sampling request to the client and its answer back to the upstream', async () => {
    const client = shim();
    await client.initialize({ sampling: {} });
    const questions: unknown[] = [];
    client.onRequest('sampling/createMessage', (params) => {
      questions.push(params);
      return { role: 'assistant', content: { type: 'text', text: 'from the agent' }, model: 'm-1' };
    });
    const response = await client.request('tools/call', {
      name: 'fx__sample',
      arguments: { prompt: 'hello through the shim' },
    });
    expect(response.error).toBeUndefined();
    const answer: unknown = JSON.parse(response.result.content[0].text as string);
    expect(answer).toMatchObject({ model: 'm-1', content: { text: 'from the agent' } });
    expect(JSON.stringify(questions)).toContain('hello through the shim');
  });

  it('relays progress with the client’s own token, all of it before the result', async () => {
    const client = shim();
    await client.initialize();
    const token = `progress-${randomUUID()}`;
    const response = await client.request('tools/call', {
      name: 'fx__progress',
      arguments: { count: 4, delay_ms: 30 },
      _meta: { progressToken: token },
    });
    expect(response.result.content[0].text).toBe('progress done: 4 steps');
    const progress = client.messages.filter((m) => m.method === 'notifications/progress');
    expect(progress.map((m): unknown[] => [m.params.progressToken, m.params.progress])).toEqual(
      [1, 2, 3, 4].map((step) => [token, step]),
    );
    const last = client.messages.indexOf(progress.at(-1)!);
    expect(last).toBeLessThan(client.messages.indexOf(response));
  });

  it('ends its daemon session when stdin closes, and exits 0', async () => {
    const sessions = async (): Promise<number> =>
      (await home().api('GET', '/status')).body.sessions as number;
    // Sessions of earlier tests finish closing just after their shims close the connection.
    await waitUntil(async () => (await sessions()) === 0, 30_000, 'no live sessions');
    const client = ShimClient.spawn(home().env);
    try {
      await client.initialize();
      await client.request('tools/list');
      expect(await sessions()).toBe(1);
    } finally {
      expect(await client.close()).toEqual({ code: 0, signal: null });
    }
    expect(client.nonJsonRpcLines()).toEqual([]);
    const log = readFileSync(join(home().home, 'logs', 'shim.log'), 'utf8')
      .split('\n')
      .filter((line) => line.includes(`"pid":${client.pid},`));
    expect(log.some((line) => line.includes('"msg":"daemon session ended"'))).toBe(true);
    await waitUntil(async () => (await sessions()) === 0, 30_000, 'the session to be closed');
  });
});
