/**
 * mcp-hub (the dev dependency), the peer users pick instead of Coffer, serving the same
 * upstream on its unified endpoint. It is run shut in like a bench daemon:
 *   - a temporary HOME and XDG directories (its workspace cache, logs, marketplace cache);
 *   - its marketplace cache seeded as fresh, or it fetches a registry from the internet on
 *     start (falling back to `curl`);
 *   - `bench/loopback-listen.ts` preloaded: mcp-hub listens on every interface, the
 *     preload binds it to 127.0.0.1 (mcp-hub refuses `--port 0`: a free port is picked);
 *   - stopped with SIGTERM by pid (its graceful shutdown stops its upstreams), then any
 *     upstream it left behind is killed after checking it carries its HOME.
 * Version 4.2.1's unified endpoint speaks the HTTP+SSE transport (GET /mcp, POST /messages).
 */
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { freePorts, repoRoot, type StdioServer } from './daemon.js';
import { HOME_PREFIX, descendants, isAlive, spawnOwned, stopChild } from './processes.js';
import { LOOPBACK_PRELOAD, listeningPort } from './upstreams.js';

const PACKAGE_DIR = join(repoRoot, 'node_modules/mcp-hub');
const CLI = join(PACKAGE_DIR, 'dist/cli.js');

export interface McpHub {
  readonly pid: number;
  /** The unified endpoint (HTTP+SSE). */
  readonly url: string;
  stop(): Promise<void>;
}

/** The installed version, or undefined when mcp-hub is not installed. */
export function mcpHubVersion(): string | undefined {
  if (!existsSync(CLI)) return undefined;
  try {
    const pkg = JSON.parse(readFileSync(join(PACKAGE_DIR, 'package.json'), 'utf8')) as {
      version?: unknown;
    };
    return typeof pkg.version === 'string' ? pkg.version : 'unknown';
  } catch {
    return 'unknown';
  }
}

export async function startMcpHub(servers: readonly StdioServer[]): Promise<McpHub> {
  const home = mkdtempSync(`${HOME_PREFIX}hub-`);
  const config = shutIn(home, servers);
  const port = await freePorts();
  const child = spawnOwned(
    process.execPath,
    ['--import', LOOPBACK_PRELOAD, CLI, '--port', String(port), '--config', config],
    { env: hubEnv(home), stdio: ['ignore', 'ignore', 'pipe'] },
  );
  const pid = child.pid ?? -1;
  const stop = async (): Promise<void> => {
    const upstreams = isAlive(pid) ? descendants(pid) : [];
    await stopChild(child);
    for (const upstream of upstreams) killIfCarries(upstream, `HOME=${home}`);
    rmSync(home, { recursive: true, force: true });
  };
  try {
    const bound = await listeningPort(child);
    const base = `http://127.0.0.1:${bound}`;
    await waitReady(base, servers.length);
    return { pid, url: `${base}/mcp`, stop };
  } catch (error) {
    await stop();
    throw new Error(`mcp-hub did not start: ${String(error)}`);
  }
}

/** Writes the config and the directories mcp-hub uses under `home`; returns the config. */
function shutIn(home: string, servers: readonly StdioServer[]): string {
  const cache = join(home, 'data/mcp-hub/cache');
  mkdirSync(cache, { recursive: true });
  mkdirSync(join(home, 'state'), { recursive: true });
  mkdirSync(join(home, 'config'), { recursive: true });
  // Fresh (fetched "now") and not empty: mcp-hub then skips the registry download.
  const placeholder = { id: 'bench', name: 'bench', description: '', tags: [], stars: 0 };
  const registry = { version: 'bench', generatedAt: 0, totalServers: 1, servers: [placeholder] };
  writeFileSync(
    join(cache, 'registry.json'),
    JSON.stringify({ registry, lastFetchedAt: Date.now(), serverDocumentation: {} }),
  );
  const mcpServers = Object.fromEntries(
    servers.map((s) => [s.name, { command: s.command, args: [...s.args] }]),
  );
  const config = join(home, 'config.json');
  writeFileSync(config, JSON.stringify({ mcpServers }));
  return config;
}

function hubEnv(home: string): NodeJS.ProcessEnv {
  return {
    ...process.env,
    HOME: home,
    XDG_DATA_HOME: join(home, 'data'),
    XDG_STATE_HOME: join(home, 'state'),
    XDG_CONFIG_HOME: join(home, 'config'),
  };
}

/** Polls /api/health until every configured server is connected (30 s at most). */
async function waitReady(base: string, servers: number): Promise<void> {
  const deadline = Date.now() + 30_000;
  let last = '';
  while (Date.now() < deadline) {
    try {
      const response = await fetch(`${base}/api/health`);
      const health = (await response.json()) as {
        state?: string;
        servers?: { status?: string }[];
      };
      const connected = (health.servers ?? []).filter((s) => s.status === 'connected').length;
      if (health.state === 'ready' && connected === servers) return;
      last = `state ${health.state}, ${connected}/${servers} servers connected`;
    } catch (error) {
      last = String(error);
    }
    await sleep(50);
  }
  throw new Error(`not ready after 30 s (${last})`);
}

function killIfCarries(pid: number, marker: string): void {
  try {
    const environ = readFileSync(`/proc/${pid}/environ`, 'utf8');
    if (environ.split('\0').includes(marker)) process.kill(pid, 'SIGKILL');
  } catch {
    // gone already
  }
}
