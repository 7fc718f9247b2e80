import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { spawn } from 'node:child_process';
import { connect, createServer } from 'node:net';
import { join } from 'node:path';
import { Hono } from 'hono';
import { afterEach, describe, expect, it } from 'vitest';
import { cofferPaths } from '../../../src/config/home.js';
import type { DaemonServices } from '../../../src/daemon/daemon-services.js';
import { runDaemon, type DaemonHandle } from '../../../src/daemon/run-daemon.js';
import { silentLogger } from '../../../src/observability/logger.js';
import { eventually } from '../../support/eventually.js';
import { closeServer, freePortBlock, makeHome, removeHome } from './daemon-harness.js';

/** runDaemon in-process (ownProcess: false) with fake services: order and bounds. */
const handles: DaemonHandle[] = [];
const homes: string[] = [];

afterEach(async () => {
  await Promise.all(handles.splice(0).map((handle) => handle.stop('test cleanup')));
  await Promise.all(homes.splice(0).map(removeHome));
});

async function start(
  services: Partial<DaemonServices> = {},
  shutdownTimeoutMs = 5_000,
  existingHome?: string,
) {
  const home = existingHome ?? (await makeHome());
  if (existingHome === undefined) homes.push(home);
  const paths = cofferPaths(home);
  const block = await freePortBlock(2);
  const events: string[] = [];
  const api = new Hono();
  api.get('/api/v1/servers', (c) => c.json({ servers: [] }));
  const handle = await runDaemon({
    paths,
    portRange: { first: block.first, last: block.last },
    logger: silentLogger(),
    clock: { now: () => new Date('2026-05-20T12:00:00.000Z') },
    shutdownTimeoutMs,
    createServices: (context) => {
      events.push(`create:${context.port}:${context.token.length}`);
      events.push(`daemon.json exists at create: ${existsSync(paths.daemonFile)}`);
      return Promise.resolve({
        handleMcp: (_req, res) => {
          res.end('mcp');
          return Promise.resolve();
        },
        api,
        status: () => ({ servers: [{ name: 'one', state: 'idle' }] }),
        close: () => {
          events.push(`close: daemon.json exists ${existsSync(paths.daemonFile)}`);
          return Promise.resolve();
        },
        ...services,
      });
    },
  });
  handles.push(handle);
  return { home, paths, block, events, handle };
}

describe('runDaemon', () => {
  it('binds, creates services, then writes daemon.json; stop closes services before removing it', async () => {
    const { paths, block, events, handle } = await start();
    expect(handle.info.port).toBe(block.first);
    expect(events).toEqual([`create:${block.first}:32`, 'daemon.json exists at create: false']);
    const record = JSON.parse(readFileSync(paths.daemonFile, 'utf8')) as Record<string, unknown>;
    expect(record).toMatchObject({
      version: 1,
      pid: process.pid,
      port: block.first,
      token: handle.info.token,
      started_at: '2026-05-20T12:00:00.000Z',
    });

    const status = await fetch(`${handle.info.baseUrl}/api/v1/status`, {
      headers: { authorization: `Bearer ${handle.info.token}` },
    });
    expect(await status.json()).toEqual({
      servers: [{ name: 'one', state: 'idle' }],
      version: expect.any(String),
      pid: process.pid,
      port: block.first,
      started_at: '2026-05-20T12:00:00.000Z',
      uptime_seconds: 0,
      mcp_url: handle.info.mcpUrl,
    });

    await handle.stop();
    expect(events.at(-1)).toBe('close: daemon.json exists true');
    expect(existsSync(paths.daemonFile)).toBe(false);
    await expect(fetch(`${handle.info.baseUrl}/healthz`)).rejects.toThrow();
  });

  it('listens on the socket channel (stale file replaced), and stop ends its connections', async () => {
    const home = await makeHome();
    homes.push(home);
    const socketPath = join(home, 'coffer.sock');
    // A daemon killed with SIGKILL leaves its socket file behind.
    const killed = spawn(process.execPath, [
      '-e',
      `require('node:net').createServer().listen(${JSON.stringify(socketPath)})`,
    ]);
    await eventually(() => expect(existsSync(socketPath)).toBe(true));
    const exited = new Promise((resolveExit) => killed.once('exit', resolveExit));
    killed.kill('SIGKILL');
    await exited;
    expect(existsSync(socketPath)).toBe(true);
    const ended: string[] = [];
    const { paths, handle } = await start(
      {
        handleSocket: (socket) => {
          socket.on('data', () => undefined);
          socket.on('close', () => ended.push('connection closed'));
          socket.write('hi\n');
        },
      },
      5_000,
      home,
    );
    const record = JSON.parse(readFileSync(paths.daemonFile, 'utf8')) as { socket?: string };
    expect(record.socket).toBe(socketPath);
    expect(handle.info.socket).toBe(socketPath);
    const client = connect(socketPath);
    const greeted = new Promise((resolveData) => client.once('data', resolveData));
    const clientClosed = new Promise((resolveClose) => client.once('close', resolveClose));
    await greeted;
    await handle.stop();
    await clientClosed;
    expect(ended).toEqual(['connection closed']);
    expect(existsSync(socketPath)).toBe(false);
  });

  it('the stop endpoint answers, then stops the daemon', async () => {
    const { paths, handle } = await start();
    const reply = await fetch(`${handle.info.baseUrl}/api/v1/daemon/stop`, {
      method: 'POST',
      headers: { authorization: `Bearer ${handle.info.token}` },
    });
    expect(reply.status).toBe(202);
    await handle.stopped;
    expect(existsSync(paths.daemonFile)).toBe(false);
  });

  it('bounds services.close() by the shutdown timeout', async () => {
    // close() never settles: stop() resolving at all is the bound at work (a hang fails the test).
    const { paths, handle } = await start({ close: () => new Promise<void>(() => undefined) }, 300);
    await handle.stop();
    expect(existsSync(paths.daemonFile)).toBe(false);
  });

  it('leaves a daemon.json that another daemon wrote meanwhile', async () => {
    const { paths, handle } = await start();
    const other = readFileSync(paths.daemonFile, 'utf8').replace(
      handle.info.token,
      'another-daemon-token-another-dae',
    );
    writeFileSync(paths.daemonFile, other);
    await handle.stop();
    expect(readFileSync(paths.daemonFile, 'utf8')).toBe(other);
  });

  it('releases the port and writes no daemon.json when the services fail to start', async () => {
    const home = await makeHome();
    homes.push(home);
    const paths = cofferPaths(home);
    const block = await freePortBlock(1);
    await expect(
      runDaemon({
        paths,
        portRange: { first: block.first, last: block.last },
        logger: silentLogger(),
        createServices: () => Promise.reject(new Error('store is broken')),
      }),
    ).rejects.toThrow('store is broken');
    expect(existsSync(paths.daemonFile)).toBe(false);
    const probe = createServer();
    await new Promise<void>((resolveListen, reject) => {
      probe.once('error', reject);
      probe.listen(block.first, '127.0.0.1', () => resolveListen());
    });
    await closeServer(probe);
  });

  it('throws PORT_RANGE_EXHAUSTED naming the range', async () => {
    const home = await makeHome();
    homes.push(home);
    const block = await freePortBlock(2);
    const blockers = await Promise.all(
      [block.first, block.last].map(
        (port) =>
          new Promise<ReturnType<typeof createServer>>((resolveListen) => {
            const server = createServer().listen(port, '127.0.0.1', () => resolveListen(server));
          }),
      ),
    );
    try {
      await expect(
        runDaemon({
          paths: cofferPaths(home),
          portRange: { first: block.first, last: block.last },
          logger: silentLogger(),
          createServices: () => Promise.reject(new Error('never called')),
        }),
      ).rejects.toMatchObject({
        code: 'PORT_RANGE_EXHAUSTED',
        message: expect.stringContaining(`${block.first}-${block.last}`),
      });
    } finally {
      await Promise.all(blockers.map(closeServer));
    }
  });
});
