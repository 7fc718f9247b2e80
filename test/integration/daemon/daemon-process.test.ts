import { realpathSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { isProcessAlive } from '../../../src/discovery/process-check.js';
import {
  assertBuilt,
  closeServer,
  cofferEnv,
  exited,
  freePortBlock,
  makeHome,
  occupy,
  ProcessTracker,
  readDaemonJson,
  runCoffer,
  spawnForegroundDaemon,
  waitFor,
} from './daemon-harness.js';

/** `node bin/coffer.js daemon` as a real foreground process, with a temporary home. */
const tracker = new ProcessTracker();

beforeAll(() => assertBuilt());
afterEach(() => tracker.cleanup());

async function startForeground() {
  const home = tracker.home(await makeHome());
  const block = await freePortBlock(3);
  const env = cofferEnv({ home, portRange: block.env });
  const child = tracker.child(spawnForegroundDaemon(env));
  const record = await waitFor(() => readDaemonJson(home), 'daemon.json').catch(
    (error: unknown) => {
      throw new Error(`${String(error)}\n${child.output()}`);
    },
  );
  return { home, block, env, child, record, port: record['port'] as number };
}

function get(port: number, path: string, headers: Record<string, string> = {}) {
  return fetch(`http://127.0.0.1:${port}${path}`, { headers });
}

describe('coffer daemon (foreground)', () => {
  it('writes daemon.json (0600, eight fields) in a 0700 home and serves on 127.0.0.1', async () => {
    const { home, block, child, record, port } = await startForeground();
    expect(Object.keys(record).sort()).toEqual(
      ['binary_path', 'home', 'pid', 'port', 'socket', 'started_at', 'token', 'version'].sort(),
    );
    expect(record['home']).toBe(realpathSync(home));
    expect(record['version']).toBe(1);
    expect(record['pid']).toBe(child.pid);
    expect(port).toBe(block.first);
    expect(record['token']).toMatch(/^[A-Za-z0-9_-]{32}$/);
    expect(Number.isNaN(Date.parse(record['started_at'] as string))).toBe(false);
    expect(record['binary_path']).toMatch(/bin[/\\]coffer\.js$/);

    expect(statSync(join(home, 'daemon.json')).mode & 0o777).toBe(0o600);
    expect(statSync(home).mode & 0o777).toBe(0o700);
    expect(statSync(join(home, 'logs')).mode & 0o777).toBe(0o700);
    expect(statSync(join(home, 'logs', 'coffer.log')).mode & 0o777).toBe(0o600);

    const health = await get(port, '/healthz');
    expect(health.status).toBe(200);
    expect(await health.json()).toEqual({ ok: true });
  });

  it('guards every endpoint but /healthz: 401 and 403 as JSON', async () => {
    const { record, port } = await startForeground();
    const token = record['token'] as string;

    const none = await get(port, '/api/v1/status');
    expect(none.status).toBe(401);
    const body = (await none.json()) as {
      error: { code: string; message: string; traceId: string };
    };
    expect(body.error.code).toBe('UNAUTHORIZED');
    expect(body.error.traceId).toMatch(/^[0-9a-f]{32}$/);

    const wrong = await get(port, '/api/v1/status', { authorization: `Bearer ${'A'.repeat(32)}` });
    expect(wrong.status).toBe(401);
    const mcpWrong = await get(port, '/mcp', { authorization: 'Bearer nope' });
    expect(mcpWrong.status).toBe(401);
    const query = await get(port, `/api/v1/status?token=${token}`);
    expect(query.status).toBe(401);

    const ok = await get(port, '/api/v1/status', { authorization: `Bearer ${token}` });
    expect(ok.status).toBe(200);
    const status = (await ok.json()) as Record<string, unknown>;
    expect(status).toMatchObject({ pid: record['pid'], port });
    expect(typeof status['uptime_seconds']).toBe('number');
    expect(JSON.stringify(status)).not.toContain(token);

    // fetch() will not send a forged Host: use node:http for the DNS-rebinding cases.
    const { request } = await import('node:http');
    const raw = (headers: Record<string, string>) =>
      new Promise<{ status: number; body: string }>((resolveRaw, reject) => {
        const req = request(
          { host: '127.0.0.1', port, path: '/mcp', method: 'POST', headers },
          (res) => {
            let text = '';
            res.setEncoding('utf8').on('data', (chunk: string) => (text += chunk));
            res.on('end', () => resolveRaw({ status: res.statusCode ?? 0, body: text }));
          },
        );
        req.on('error', reject);
        req.end('{}');
      });
    const evilHost = await raw({ host: `evil.example:${port}`, authorization: `Bearer ${token}` });
    expect(evilHost.status).toBe(403);
    expect(JSON.parse(evilHost.body)).toMatchObject({ error: { code: 'FORBIDDEN' } });
    const evilOrigin = await raw({
      host: `127.0.0.1:${port}`,
      origin: 'http://evil.example',
      authorization: `Bearer ${token}`,
    });
    expect(evilOrigin.status).toBe(403);
    expect(JSON.parse(evilOrigin.body)).toMatchObject({ error: { code: 'FORBIDDEN' } });
  });

  it.each(['SIGTERM', 'SIGINT', 'SIGHUP'] as const)(
    'removes daemon.json and exits 0 on %s',
    async (signal) => {
      const { home, child } = await startForeground();
      child.kill(signal);
      const exit = await exited(child);
      expect(exit).toEqual({ code: 0, signal: null });
      expect(readDaemonJson(home)).toBeUndefined();
    },
  );

  it('stops through POST /api/v1/daemon/stop', async () => {
    const { home, child, record, port } = await startForeground();
    const reply = await fetch(`http://127.0.0.1:${port}/api/v1/daemon/stop`, {
      method: 'POST',
      headers: { authorization: `Bearer ${record['token'] as string}` },
    });
    expect(reply.status).toBe(202);
    expect(await exited(child)).toEqual({ code: 0, signal: null });
    expect(readDaemonJson(home)).toBeUndefined();
    expect(isProcessAlive(child.pid!)).toBe(false);
  });

  it('takes the next port of the range when the first is taken', async () => {
    const home = tracker.home(await makeHome());
    const block = await freePortBlock(3);
    const [blocker] = await occupy({ ...block, last: block.first, env: '' });
    try {
      tracker.child(spawnForegroundDaemon(cofferEnv({ home, portRange: block.env })));
      const record = await waitFor(() => readDaemonJson(home), 'daemon.json');
      expect(record['port']).toBe(block.first + 1);
    } finally {
      await closeServer(blocker!);
    }
  });

  it('refuses to start, naming the range, when every port is taken', async () => {
    const home = tracker.home(await makeHome());
    const block = await freePortBlock(3);
    const servers = await occupy(block);
    try {
      const result = await runCoffer(['daemon'], cofferEnv({ home, portRange: block.env }));
      expect(result.code).toBe(5);
      expect(result.stderr).toContain(`${block.first}-${block.last}`);
      expect(result.stderr).toMatch(/^coffer: .*in use.*\(.*COFFER_PORT_RANGE.*\)\n$/);
      expect(readDaemonJson(home)).toBeUndefined();
    } finally {
      await Promise.all(servers.map(closeServer));
    }
  });

  it('rejects a malformed COFFER_PORT_RANGE with a clear message (exit 2)', async () => {
    const home = tracker.home(await makeHome());
    const result = await runCoffer(['daemon'], cofferEnv({ home, portRange: '9000-80' }));
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('COFFER_PORT_RANGE must be "lo-hi"');
    expect(result.stderr).toContain('"9000-80"');
  });

  it('refuses a second daemon for the same home', async () => {
    const { env, record } = await startForeground();
    const result = await runCoffer(['daemon'], env);
    expect(result.code).not.toBe(0);
    expect(result.stderr).toContain(`already running`);
    expect(result.stderr).toContain(`pid ${String(record['pid'])}`);
  });
});
