import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { waitForExit, waitForPort } from '../../support/fixture-process.js';
import { everythingServer } from '../../support/everything-server.js';
import { freeRestartPort } from '../../support/free-port-range.js';
import { repoRoot, startDaemon, type RunningDaemon } from '../../support/running-daemon.js';
import { textOf } from '../../support/tool-result.js';
import { toolsOnceListed } from '../../support/listed-tools.js';

/**
 * A remote server on the legacy HTTP+SSE transport (2024-11-05), served by a program nobody
 * here wrote: `@modelcontextprotocol/server-everything sse`. Coffer relays its tools, and
 * when the server restarts between two calls (its SSE stream cut, its sessions forgotten)
 * the next call succeeds on a fresh connection without the user doing anything.
 */

/** Binds server-everything's listener to 127.0.0.1 and prints `listening <port>`. */
const LOOPBACK_PRELOAD = join(repoRoot, 'dist/bench/loopback-listen.js');

interface SseServer {
  readonly child: ChildProcess;
  readonly port: number;
  readonly exited: Promise<unknown>;
}

async function startEverythingSse(port: number): Promise<SseServer> {
  const child = spawn(process.execPath, ['--import', LOOPBACK_PRELOAD, everythingServer, 'sse'], {
    stdio: ['ignore', 'ignore', 'pipe'],
    env: { ...process.env, PORT: String(port) },
  });
  const exited = waitForExit(child);
  let log = '';
  child.stderr.setEncoding('utf8');
  child.stderr.on('data', (chunk: string) => (log += chunk));
  const listening = await waitForPort(child, () => log, 45_000).catch(async (error: unknown) => {
    child.kill('SIGKILL');
    await exited;
    throw error;
  });
  return { child, port: listening, exited };
}

async function stop(server: SseServer): Promise<void> {
  if (server.child.exitCode === null && server.child.signalCode === null)
    server.child.kill('SIGKILL');
  await server.exited;
}

describe('a legacy SSE upstream (server-everything)', () => {
  let daemon: RunningDaemon | undefined;
  const servers: SseServer[] = [];

  afterEach(async () => {
    await daemon?.stop();
    daemon = undefined;
    for (const server of servers.splice(0)) await stop(server);
  });

  it('relays its tools, and heals after the server restarts between two calls', async () => {
    const first = await startEverythingSse(await freeRestartPort());
    servers.push(first);
    daemon = await startDaemon();
    const added = await daemon.api('POST', '/servers', {
      name: 'legacy',
      transport: 'sse',
      url: `http://127.0.0.1:${first.port}/sse`,
    });
    expect(added.status, JSON.stringify(added.body)).toBe(201);

    const client = await daemon.client();
    await toolsOnceListed(client, ['legacy__echo']);
    const before = await client.callTool({ name: 'legacy__echo', arguments: { message: 'one' } });
    expect(textOf(before)).toContain('one');

    await stop(first);
    const second = await startEverythingSse(first.port);
    servers.push(second);

    // The daemon saw the old stream end: this goes to a fresh connection, not the old
    // session's endpoint (which server-everything would never answer: the SDK's 60 s
    // request timeout fails the test then; a fresh connect on a busy machine takes seconds).
    const after = await client.callTool({ name: 'legacy__echo', arguments: { message: 'two' } });
    expect(textOf(after)).toContain('two');
    const tested = await daemon.api('POST', '/servers/legacy/test');
    expect(tested.body).toMatchObject({ ok: true });
  });
});
