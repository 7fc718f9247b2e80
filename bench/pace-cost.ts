/**
 * What the client's pace does to a server's CPU per call: the daemon behind /mcp (the
 * fixture's `echo` relayed) and, for comparison, a bare `node:http` server answering each
 * JSON POST at once, each driven by raw keep-alive clients that wait before every call:
 * not at all, spinning 0.3 ms (its CPU busy, as an SDK client's is), or asleep 0.3 or 1 ms
 * (`Atomics.wait`, no CPU). After a warm-up, rounds of calls over every (server, pace) in
 * turn; the server's CPU is read from /proc around each; medians of the rounds.
 *
 *   node dist/bench/pace-cost.js [--rounds 8] [--calls 1000]
 */
import { Agent, createServer } from 'node:http';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { repoRoot, startDaemon, type BenchDaemon } from './daemon.js';
import { cpuMicros } from './proc-readings.js';
import { postJson, rawHttpSession } from './raw-sessions.js';
import { median } from './stats.js';
import { fixtureUpstream, startHttpServer, type HttpUpstream } from './upstreams.js';

const WARMUP = 2_000;
const PACES = [
  { label: 'back to back', spinMs: 0, sleepMs: 0 },
  { label: 'spins 0.3 ms', spinMs: 0.3, sleepMs: 0 },
  { label: 'sleeps 0.3 ms', spinMs: 0, sleepMs: 0.3 },
  { label: 'sleeps 1 ms', spinMs: 0, sleepMs: 1 },
] as const;
type Pace = (typeof PACES)[number];

const napCell = new Int32Array(new SharedArrayBuffer(4));

function wait(pace: Pace): void {
  if (pace.sleepMs > 0) Atomics.wait(napCell, 0, 0, pace.sleepMs);
  const until = performance.now() + pace.spinMs;
  while (performance.now() < until);
}

/** The bare server, in a process of its own so that its CPU is its alone. */
function serveBare(): void {
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const { id } = JSON.parse(Buffer.concat(chunks).toString()) as { id: number };
      const answer = JSON.stringify({ jsonrpc: '2.0', id, result: { content: [] } });
      res.writeHead(200, {
        'content-type': 'application/json',
        'content-length': Buffer.byteLength(answer),
      });
      res.end(answer);
    });
  });
  server.keepAliveTimeout = 60_000;
  server.listen(0, '127.0.0.1', () => {
    const address = server.address();
    process.stderr.write(
      `listening ${typeof address === 'object' && address ? address.port : 0}\n`,
    );
  });
}

interface Driven {
  readonly server: 'daemon' | 'bare';
  readonly pace: Pace;
  readonly pid: number;
  readonly call: () => Promise<void>;
  readonly close: () => void;
  readonly cpuUs: number[];
}

async function calls(driven: Driven, count: number): Promise<void> {
  for (let i = 0; i < count; i++) {
    wait(driven.pace);
    await driven.call();
  }
}

/** One daemon session and one bare-server connection per pace. */
async function drive(daemon: BenchDaemon, bare: HttpUpstream) {
  const { name, tool } = fixtureUpstream;
  const params = { name: `${name}__${tool}`, arguments: fixtureUpstream.arguments };
  const bareUrl = new URL(bare.url);
  const driven: Driven[] = [];
  for (const pace of PACES) {
    const session = await rawHttpSession(daemon.url, daemon.token);
    const call = async () => {
      const answer = (await session.request('tools/call', params)).toString();
      if (!answer.includes('"result"')) throw new Error(`the call failed: ${answer}`);
    };
    const endSession = () => session.close();
    driven.push({ server: 'daemon', pace, pid: daemon.pid, call, close: endSession, cpuUs: [] });
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    let id = 0;
    const post = async () => {
      const body = JSON.stringify({ jsonrpc: '2.0', id: id++, method: 'tools/call', params });
      const { status } = await postJson(bareUrl, agent, body);
      if (status !== 200) throw new Error(`the bare server answered HTTP ${status}`);
    };
    const endAgent = () => agent.destroy();
    driven.push({ server: 'bare', pace, pid: bare.pid, call: post, close: endAgent, cpuUs: [] });
  }
  return driven;
}

async function measure(rounds: number, count: number): Promise<void> {
  const daemon = await startDaemon({ bin: join(repoRoot, 'bin/coffer.js') });
  let bare: HttpUpstream | undefined;
  let driven: Driven[] = [];
  try {
    bare = await startHttpServer([import.meta.filename, '--serve-bare'], {});
    const { name, command, args } = fixtureUpstream;
    await daemon.addServer({ name, command, args });
    driven = await drive(daemon, bare);
    for (const each of driven) await calls(each, WARMUP);
    for (let round = 0; round < rounds; round++) {
      for (const each of round % 2 === 0 ? driven : [...driven].reverse()) {
        const before = cpuMicros(each.pid);
        await calls(each, count);
        each.cpuUs.push((cpuMicros(each.pid) - before) / count);
      }
    }
    report(driven);
  } finally {
    for (const each of driven) each.close();
    await bare?.stop();
    await daemon.stop();
  }
}

function report(driven: readonly Driven[]): void {
  const cell = (server: Driven['server'], pace: Pace): string => {
    const found = driven.find((each) => each.server === server && each.pace === pace);
    return found === undefined ? '—' : `${median(found.cpuUs).toFixed(0)} µs`;
  };
  console.log(
    '| client, before each call | daemon CPU per call | bare node:http CPU per request |',
  );
  console.log('| --- | ---: | ---: |');
  for (const pace of PACES)
    console.log(`| ${pace.label} | ${cell('daemon', pace)} | ${cell('bare', pace)} |`);
}

const USAGE = 'usage: node dist/bench/pace-cost.js [--rounds N] [--calls N]\n';

if (process.argv[2] === '--serve-bare') serveBare();
else {
  const { values } = parseArgs({
    options: {
      rounds: { type: 'string', default: '8' },
      calls: { type: 'string', default: '1000' },
    },
  });
  const rounds = Number(values.rounds);
  const count = Number(values.calls);
  if (!(rounds >= 1 && count >= 1)) {
    process.stderr.write(USAGE);
    process.exit(2);
  }
  await measure(rounds, count);
}
