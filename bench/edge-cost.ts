/**
 * The daemon's HTTP edge alone: Node's HTTP server, `@hono/node-server`, the Hono app and
 * its access guard (src/daemon/http-server.ts), with an MCP handler that answers every POST
 * at once. It prints the edge's CPU per request, read from /proc around keep-alive POSTs
 * sent one at a time. The full bench's per-call CPU swings with the machine's load by more
 * than an edge change moves it; this figure holds within a few µs.
 *
 *   node dist/bench/edge-cost.js [other-repo-root …]
 *
 * Other roots (built clones of this repository) are measured in the same run, rounds taken
 * in turn, so that a before and an after see the same machine.
 */
import { Agent, request, type Server, type ServerResponse } from 'node:http';
import { join } from 'node:path';
import { cpuMicros } from './proc-readings.js';
import { repoRoot } from './daemon.js';
import { median } from './stats.js';
import { startHttpServer, type HttpUpstream } from './upstreams.js';

const TOKEN = 'edge-cost-token-0123456789abcdef';
const ROUNDS = 16;
const REQUESTS_PER_ROUND = 2_000;
const WARMUP = 3_000;
const ANSWER = JSON.stringify({ jsonrpc: '2.0', id: 1, result: {} });
const BODY = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping' });

/** The server side, in its own process so that its CPU is the edge's alone. */
async function serve(root: string): Promise<void> {
  type Module = Record<string, (...args: unknown[]) => unknown>;
  const load = (path: string) => import(join(root, path)) as Promise<Module>;
  const http = await load('dist/src/daemon/http-server.js');
  const { silentLogger } = await load('dist/src/observability/logger.js');
  const { Hono } = (await import('hono')) as unknown as { Hono: new () => unknown };
  const handleMcp = (req: NodeJS.ReadableStream, res: ServerResponse) =>
    new Promise<void>((resolve) => {
      req.resume();
      req.on('end', () => {
        res.writeHead(200, {
          'content-type': 'application/json',
          'content-length': Buffer.byteLength(ANSWER),
        });
        res.end(ANSWER);
        resolve();
      });
    });
  const { server, serve: install } = http['createDaemonServer']!() as {
    server: Server;
    serve: (handler: unknown) => void;
  };
  install(
    http['createDaemonRouter']!({
      port: 0,
      token: TOKEN,
      logger: silentLogger!(),
      services: { handleMcp },
      api: new Hono(),
    }),
  );
  server.listen(0, '127.0.0.1', () => {
    const address = server.address();
    process.stderr.write(
      `listening ${typeof address === 'object' && address ? address.port : 0}\n`,
    );
  });
}

interface Edge {
  readonly root: string;
  readonly server: HttpUpstream;
  readonly port: number;
  readonly agent: Agent;
  readonly perRequestUs: number[];
}

async function start(root: string): Promise<Edge> {
  const server = await startHttpServer([import.meta.filename, '--serve', root], {});
  return {
    root,
    server,
    port: Number(new URL(server.url).port),
    agent: new Agent({ keepAlive: true, maxSockets: 1 }),
    perRequestUs: [],
  };
}

function post(edge: Edge): Promise<void> {
  return new Promise((resolve, reject) => {
    const headers = {
      host: `127.0.0.1:${edge.port}`,
      authorization: `Bearer ${TOKEN}`,
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'content-length': Buffer.byteLength(BODY),
    };
    const options = { host: '127.0.0.1', port: edge.port, path: '/mcp', method: 'POST' };
    const req = request({ ...options, agent: edge.agent, headers }, (res) => {
      if (res.statusCode !== 200) reject(new Error(`HTTP ${res.statusCode ?? 0}`));
      res.resume();
      res.on('end', resolve);
    });
    req.on('error', reject);
    req.end(BODY);
  });
}

async function posts(edge: Edge, count: number): Promise<void> {
  for (let i = 0; i < count; i++) await post(edge);
}

async function measure(roots: readonly string[]): Promise<void> {
  const edges: Edge[] = [];
  try {
    for (const root of roots) edges.push(await start(root));
    for (const edge of edges) await posts(edge, WARMUP);
    for (let round = 0; round < ROUNDS; round++) {
      for (const edge of edges) {
        const before = cpuMicros(edge.server.pid);
        await posts(edge, REQUESTS_PER_ROUND);
        edge.perRequestUs.push((cpuMicros(edge.server.pid) - before) / REQUESTS_PER_ROUND);
      }
    }
    for (const edge of edges) {
      const rounds = edge.perRequestUs.map((us) => us.toFixed(0)).join(' ');
      console.log(
        `${edge.root}: ${median(edge.perRequestUs).toFixed(1)} µs CPU per request (rounds: ${rounds})`,
      );
    }
  } finally {
    for (const edge of edges) {
      edge.agent.destroy();
      await edge.server.stop();
    }
  }
}

if (process.argv[2] === '--serve') await serve(process.argv[3] ?? repoRoot);
else await measure([repoRoot, ...process.argv.slice(2)]);
