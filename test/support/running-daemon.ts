import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { ClientCapabilities } from '@modelcontextprotocol/sdk/types.js';
import { freePortRange } from './free-port-range.js';

export const repoRoot = resolve(import.meta.dirname, '../..');
export const cofferBin = join(repoRoot, 'bin/coffer.js');

export interface RunningDaemon {
  readonly home: string;
  readonly pid: number;
  readonly port: number;
  readonly token: string;
  readonly baseUrl: string;
  readonly env: NodeJS.ProcessEnv;
  /** Calls the REST API with the token; returns status and parsed JSON (or null). */
  api(method: string, path: string, body?: unknown): Promise<{ status: number; body: any }>; // eslint-disable-line @typescript-eslint/no-explicit-any -- JSON of any route
  /** An SDK client connected to `/mcp` or `/servers/<name>/mcp`. */
  client(options?: {
    server?: string;
    capabilities?: ClientCapabilities;
    name?: string;
    /** Sent with every request, beside the token (e.g. a `traceparent`). */
    headers?: Record<string, string>;
  }): Promise<Client>;
  stop(): Promise<void>;
}

/**
 * Runs the built daemon (`node bin/coffer.js daemon`) as a real process with its own
 * temporary home and port range, the way a user's machine runs it.
 */
export async function startDaemon(
  extraEnv: Record<string, string> = {},
  existingHome?: string,
): Promise<RunningDaemon> {
  const home = existingHome ?? mkdtempSync(join(tmpdir(), 'coffer-test-'));
  const range = await freePortRange();
  const env = { ...process.env, COFFER_HOME: home, COFFER_PORT_RANGE: range.env, ...extraEnv };
  const child = spawn(process.execPath, [cofferBin, 'daemon'], {
    env,
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const info = await waitForDaemonFile(home, child, () => stderr);
  const baseUrl = `http://127.0.0.1:${info.port}`;
  const clients: Client[] = [];
  return {
    home,
    pid: child.pid ?? 0,
    port: info.port,
    token: info.token,
    baseUrl,
    env,
    async api(method, path, body) {
      const response = await fetch(`${baseUrl}/api/v1${path}`, {
        method,
        headers: { authorization: `Bearer ${info.token}`, 'content-type': 'application/json' },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      });
      const text = await response.text();
      return { status: response.status, body: text === '' ? null : JSON.parse(text) };
    },
    async client(options = {}) {
      const path = options.server === undefined ? '/mcp' : `/servers/${options.server}/mcp`;
      const transport = new StreamableHTTPClientTransport(new URL(baseUrl + path), {
        requestInit: { headers: { ...options.headers, authorization: `Bearer ${info.token}` } },
      });
      const client = new Client(
        { name: options.name ?? 'coffer-test', version: '1.0.0' },
        { capabilities: options.capabilities ?? {} },
      );
      await client.connect(transport);
      clients.push(client);
      return client;
    },
    async stop() {
      await Promise.allSettled(clients.map((client) => client.close()));
      await stopChild(child);
      rmSync(home, { recursive: true, force: true });
    },
  };
}

async function waitForDaemonFile(
  home: string,
  child: ChildProcess,
  stderr: () => string,
): Promise<{ port: number; token: string }> {
  const file = join(home, 'daemon.json');
  // A cold start (modules, SQLite migrations) on a busy 2-core machine took over 45 s at load
  // average 30; this only bounds a start that never comes, inside the 120 s hook timeouts.
  const deadline = Date.now() + 90_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`daemon exited ${child.exitCode}: ${stderr()}`);
    if (existsSync(file)) {
      try {
        const info = JSON.parse(readFileSync(file, 'utf8')) as {
          pid: number;
          port: number;
          token: string;
        };
        // A restart in the same home may still see its killed predecessor's file.
        if (info.pid === child.pid) return info;
      } catch {
        // written atomically, but be patient with a partial read
      }
    }
    await new Promise((r) => setTimeout(r, 50));
  }
  await stopChild(child);
  throw new Error(`daemon did not start: ${stderr()}`);
}

async function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((r) => child.once('exit', r));
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), 8_000);
  await exited;
  clearTimeout(timer);
}

/** The built fixture MCP server (test/fixtures/fake-mcp-server.ts). */
export const fixtureServer = join(repoRoot, 'dist/test/fixtures/fake-mcp-server.js');

/**
 * Registers `node <args…>` as the stdio server `name`; anything but 201 fails the test
 * with the daemon's answer.
 */
export async function addNodeServer(
  daemon: RunningDaemon,
  name: string,
  args: readonly string[],
  /** `shared: true` registers it shared by every session (opt-in). */
  settings: { shared?: boolean } = {},
): Promise<void> {
  const added = await daemon.api('POST', '/servers', {
    name,
    transport: 'stdio',
    command: process.execPath,
    args,
    ...settings,
  });
  if (added.status !== 201)
    throw new Error(`adding ${name} answered ${added.status}: ${JSON.stringify(added.body)}`);
}

/** Registers the fixture server as `name` (stdio), `args` after its path (`--scenario …`). */
export function addFixture(
  daemon: RunningDaemon,
  name: string,
  args: readonly string[] = [],
  settings: { shared?: boolean } = {},
): Promise<void> {
  return addNodeServer(daemon, name, [fixtureServer, ...args], settings);
}
