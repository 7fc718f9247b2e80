import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually } from '../../support/eventually.js';
import { freePortRange } from '../../support/free-port-range.js';
import { cofferBin, fixtureServer as fixture } from '../../support/running-daemon.js';

/**
 * Under `umask 000` every file Coffer creates would be world-writable unless it sets the
 * modes itself: run the real daemon that way (a shell sets the umask, then execs node),
 * make it write everything it writes (database, daemon.json, secrets.json, its log and
 * an upstream's log), and check every entry of the home.
 */

interface Started {
  child: ChildProcess;
  home: string;
  port: number;
  token: string;
}

async function startUnderUmask000(): Promise<Started> {
  // The home does not exist yet: the daemon creates it, under the permissive umask.
  const home = join(mkdtempSync(join(tmpdir(), 'coffer-umask-')), 'home');
  const range = await freePortRange();
  const child = spawn(
    '/bin/sh',
    ['-c', `umask 000; exec "$0" "$1" daemon`, process.execPath, cofferBin],
    {
      env: {
        ...process.env,
        COFFER_HOME: home,
        COFFER_PORT_RANGE: range.env,
        COFFER_KEYCHAIN: 'file',
      },
      stdio: ['ignore', 'ignore', 'pipe'],
    },
  );
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const file = join(home, 'daemon.json');
  const deadline = Date.now() + 90_000; // a cold start on a busy machine, not a wait
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`daemon exited: ${stderr}`);
    if (existsSync(file)) {
      const record = JSON.parse(readFileSync(file, 'utf8')) as {
        pid: number;
        port: number;
        token: string;
      };
      if (record.pid === child.pid) return { child, home, port: record.port, token: record.token };
    }
    await new Promise((r) => setTimeout(r, 50));
  }
  child.kill('SIGKILL');
  throw new Error(`daemon did not start: ${stderr}`);
}

function modes(root: string): Array<{ path: string; mode: number; dir: boolean }> {
  const found: Array<{ path: string; mode: number; dir: boolean }> = [];
  const walk = (path: string): void => {
    const stat = statSync(path);
    found.push({
      path: path.slice(root.length) || '/',
      mode: stat.mode & 0o777,
      dir: stat.isDirectory(),
    });
    if (stat.isDirectory()) for (const name of readdirSync(path)) walk(join(path, name));
  };
  walk(root);
  return found;
}

describe('private files under umask 000', () => {
  let daemon: Started;

  beforeAll(async () => {
    daemon = await startUnderUmask000();
  });

  afterAll(async () => {
    const { child } = daemon ?? {};
    if (child !== undefined && child.exitCode === null) {
      const exited = new Promise((r) => child.once('exit', r));
      child.kill('SIGTERM');
      await exited;
    }
    if (daemon !== undefined) rmSync(join(daemon.home, '..'), { recursive: true, force: true });
  });

  it('the shell really gave the daemon umask 000', () => {
    const status = readFileSync(`/proc/${daemon.child.pid}/status`, 'utf8');
    expect(status).toMatch(/^Umask:\s+0000$/m);
  });

  it('creates every directory 0700 and every file 0600', async () => {
    const base = `http://127.0.0.1:${daemon.port}`;
    const headers = { authorization: `Bearer ${daemon.token}`, 'content-type': 'application/json' };
    const added = await fetch(`${base}/api/v1/servers`, {
      method: 'POST',
      headers,
      body: JSON.stringify({
        name: 'fx',
        transport: 'stdio',
        command: process.execPath,
        args: [fixture],
      }),
    });
    expect(added.status).toBe(201);
    const secret = await fetch(`${base}/api/v1/secrets`, {
      method: 'POST',
      headers,
      body: JSON.stringify({ server: 'fx', kind: 'env', name: 'FX_TOKEN', value: 'umask-secret' }),
    });
    expect(secret.status).toBe(204);
    // A call whose upstream logs: logs/upstream-fx.log gets written.
    const client = new Client({ name: 'modes', version: '1' });
    await client.connect(
      new StreamableHTTPClientTransport(new URL(`${base}/mcp`), {
        requestInit: { headers: { authorization: headers.authorization } },
      }),
    );
    await client.callTool({ name: 'fx__log', arguments: {} });
    await client.close();

    const expected = [
      '/daemon.json',
      '/coffer.db',
      '/coffer.db-wal',
      '/coffer.db-shm',
      '/secrets.json',
      '/logs',
      '/logs/coffer.log',
      '/logs/upstream-fx.log',
    ];
    // The upstream's log and SQLite's side files appear after the call returns.
    const entries = await eventually(() => {
      const found = modes(daemon.home);
      expect(found.map((e) => e.path)).toEqual(expect.arrayContaining(expected));
      return found;
    });
    for (const entry of entries) {
      expect({ path: entry.path, mode: entry.mode.toString(8) }).toEqual({
        path: entry.path,
        mode: entry.dir ? '700' : '600',
      });
    }
  });
});
