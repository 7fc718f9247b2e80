import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { eventually } from '../../support/eventually.js';
import { freePortRange, freeRestartPort } from '../../support/free-port-range.js';
import { startFakeDaemon, type FakeDaemon, type Recorded } from './support/fake-daemon.js';
import { killAll, pidsWithEnv, waitUntil } from './support/processes.js';
import { ShimClient, type Message } from './support/shim-client.js';

/**
 * The shim's protocol edge, against a fake daemon that records every line of its shim
 * channel: what goes out is exactly what the client wrote, what comes back is exactly
 * what the daemon sent, and channels are opened, re-established and ended as the channel
 * contract says (hello, then one session per connection).
 */

let home: string;
let env: NodeJS.ProcessEnv;
const shims: ShimClient[] = [];
const fakes: FakeDaemon[] = [];

beforeEach(async () => {
  home = mkdtempSync(join(tmpdir(), 'coffer-shim-'));
  // A port range of its own: if a test ever made the shim spawn a real daemon, it would
  // be found below by COFFER_HOME and killed, and fail the test.
  env = { ...process.env, COFFER_HOME: home, COFFER_PORT_RANGE: (await freePortRange()).env };
});

afterEach(async () => {
  await Promise.all(shims.splice(0).map((shim) => shim.close(5_000)));
  await Promise.all(fakes.splice(0).map((fake) => fake.kill()));
  const leftovers = killAll(pidsWithEnv('COFFER_HOME', home));
  rmSync(home, { recursive: true, force: true });
  expect(leftovers, 'processes left behind').toEqual([]);
});

async function fake(port?: number, options?: { socket?: boolean }): Promise<FakeDaemon> {
  const started = await startFakeDaemon(env, port, options);
  fakes.push(started);
  return started;
}

function shim(args: readonly string[] = []): ShimClient {
  const started = ShimClient.spawn(env, args);
  shims.push(started);
  return started;
}

const shimLogHas = (msg: string): boolean => {
  try {
    return readFileSync(join(home, 'logs', 'shim.log'), 'utf8').includes(`"msg":"${msg}"`);
  } catch {
    return false;
  }
};
const lines = async (daemon: FakeDaemon, connection?: number): Promise<Recorded[]> =>
  (await daemon.log()).filter(
    (entry) =>
      entry.kind === 'line' && (connection === undefined || entry.connection === connection),
  );
const bodyOf = (entry: Recorded): Message => JSON.parse(entry.line) as Message;
const methodsOf = async (daemon: FakeDaemon, connection?: number): Promise<string[]> =>
  (await lines(daemon, connection)).map((entry) => bodyOf(entry).method as string);

describe('coffer shim: relaying', () => {
  it('relays messages byte for byte, both ways', async () => {
    await fake();
    const client = shim();
    await client.initialize();
    const line =
      '{"jsonrpc":"2.0","id":"a-1","method":"test/echo-raw","params":{"z":1,"a":[1.50,{"x":"é\\u2028"}],"_meta":{"custom":true}}}';
    const answer = client.response('a-1');
    client.writeLine(line);
    expect((await answer).result.received).toBe(line);

    await client.request('test/verbatim', undefined, 7);
    expect(client.lines).toContain(
      '{"result":{"z":1,"a":"é","n":{"k":[3,2,1]}},"id":7,"jsonrpc":"2.0","extra":"kept"}',
    );
    expect(client.nonJsonRpcLines()).toEqual([]);
  });

  it('says hello with the token of daemon.json, then relays the session on that connection', async () => {
    const daemon = await fake();
    const client = shim();
    const init = await client.initialize();
    expect(init.result.serverInfo.name).toBe('fake-daemon');
    await client.request('tools/list');
    const log = await daemon.log();
    const token = JSON.parse(readFileSync(join(home, 'daemon.json'), 'utf8')).token as string;
    const hellos = log.filter((entry) => entry.kind === 'hello');
    expect(hellos.map((entry) => JSON.parse(entry.line) as unknown)).toEqual([
      { coffer: 'hello', version: 1, token },
    ]);
    expect(new Set(log.map((entry) => entry.connection))).toEqual(new Set([1]));
    expect(await methodsOf(daemon)).toEqual([
      'initialize',
      'notifications/initialized',
      'tools/list',
    ]);
  });

  it('relays progress and a daemon→client request with the client’s answer', async () => {
    await fake();
    const client = shim();
    await client.initialize({ sampling: {} });
    const response = await client.request('test/progress', { _meta: { progressToken: 'tok-9' } });
    expect(response.result).toEqual({ done: true });
    const progress = client.messages.filter((m) => m.method === 'notifications/progress');
    expect(progress.map((m): unknown[] => [m.params.progressToken, m.params.progress])).toEqual([
      ['tok-9', 1],
      ['tok-9', 2],
      ['tok-9', 3],
    ]);
    expect(client.messages.indexOf(progress[2]!)).toBeLessThan(client.messages.indexOf(response));

    const sampled = { role: 'assistant', content: { type: 'text', text: 'hi' }, model: 'm' };
    client.onRequest('sampling/createMessage', () => sampled);
    expect((await client.request('test/ask')).result).toEqual({ answer: sampled });
  });

  it('asks for the lean surface in its hello with --lean', async () => {
    const daemon = await fake();
    const client = shim(['--lean']);
    await client.initialize();
    const hello = (await daemon.log()).find((entry) => entry.kind === 'hello')!;
    expect(JSON.parse(hello.line)).toMatchObject({ coffer: 'hello', mode: 'lean' });
  });

  it('answers garbage with JSON-RPC errors and carries on', async () => {
    await fake();
    const client = shim();
    await client.initialize();
    client.writeLine('this is not json');
    client.writeLine('{"jsonrpc":"2.0","id":5,"method":7}');
    client.writeLine('[]');
    await client.waitFor((m) => m.error?.code === -32700);
    await client.waitFor((m) => m.id === 5 && m.error?.code === -32600);
    await client.waitFor((m) => m.id === null && m.error?.code === -32600);
    expect((await client.request('ping')).result).toEqual({ method: 'ping', params: null });
    expect(client.nonJsonRpcLines()).toEqual([]);
  });

  it('gives a request sent before initialize the daemon’s error, under its own id', async () => {
    await fake();
    const client = shim();
    const response = await client.request('tools/list', undefined, 'early');
    expect(response.error.message).toBe('Bad Request: Server not initialized');
  });

  it('tells the user to stop an older daemon that has no shim socket', async () => {
    await fake(0, { socket: false });
    const client = shim();
    const response = await client.request('tools/list', undefined, 'old');
    expect(response.error.data.coffer_code).toBe('DAEMON_UNAVAILABLE');
    expect(response.error.message).toContain('older than this shim');
    expect(response.error.data.hint).toContain('coffer stop');
  });

  it('refuses unknown arguments on stderr, with exit code 2', async () => {
    const client = shim(['--nope']);
    expect(await client.exited).toEqual({ code: 2, signal: null });
    expect(client.stderr).toContain('unknown argument "--nope"');
    expect(client.lines).toEqual([]);
  });
});

describe('coffer shim: session lifecycle', () => {
  it('closes its connection (the daemon session) when stdin closes, then exits 0', async () => {
    const daemon = await fake();
    const client = shim();
    await client.initialize();
    await client.request('ping');
    expect(await client.close()).toEqual({ code: 0, signal: null });
    const log = await daemon.log();
    expect(log.filter((entry) => entry.kind === 'closed').map((e) => e.connection)).toEqual([1]);
    expect(client.nonJsonRpcLines()).toEqual([]);
    const shimLog = readFileSync(join(home, 'logs', 'shim.log'), 'utf8');
    expect(shimLog).toContain('"msg":"daemon session ended"');
  });

  it('answers what was asked before stdin ended (`printf … | coffer shim`), then closes', async () => {
    const daemon = await fake();
    const client = shim();
    const init = client.request('initialize', {
      protocolVersion: '2025-11-25',
      capabilities: {},
      clientInfo: { name: 'pipe', version: '1' },
    });
    client.notify('notifications/initialized');
    const progress = client.request('test/progress', { _meta: { progressToken: 1 } });
    expect(await client.close()).toEqual({ code: 0, signal: null });
    expect((await init).result).toBeDefined();
    expect((await progress).result).toEqual({ done: true });
    expect((await daemon.log()).at(-1)!.kind).toBe('closed');
  });

  it('re-initializes a forgotten session with the original params, unseen by the client', async () => {
    const daemon = await fake();
    const client = shim();
    const params = {
      protocolVersion: '2025-11-25',
      capabilities: { sampling: {}, roots: { listChanged: true }, experimental: { x: { y: 1 } } },
      clientInfo: { name: 'agent-x', version: '9.9.9', title: 'Agent X' },
    };
    await client.request('initialize', params, 'init');
    client.notify('notifications/initialized');
    const hanging = client.request('test/hang', undefined, 'hang-on-old');
    await client.request('ping');
    await daemon.control('forget');
    // A line written before the shim sees the connection end would fail as in flight.
    await waitUntil(() => shimLogHas('daemon channel lost'), 30_000, 'the shim to see the loss');
    expect((await client.request('tools/list', undefined, 'after')).result).toBeDefined();
    // The connection it went on is gone: it failed instead of hanging.
    expect((await hanging).error.data.coffer_code).toBe('DAEMON_UNAVAILABLE');

    const bodies = (await lines(daemon)).map(bodyOf);
    const inits = bodies.filter((body) => body.method === 'initialize');
    expect(inits).toHaveLength(2);
    expect(inits[1]!.params).toEqual(params);
    expect(inits[1]!.id).not.toBe('init');
    const methods = bodies.map((body) => body.method as string);
    expect(methods.slice(-3)).toEqual(['initialize', 'notifications/initialized', 'tools/list']);
    // The client saw one initialize result, and a list_changed for what it was told can change.
    expect(client.messages.filter((m) => m.result?.serverInfo !== undefined)).toHaveLength(1);
    await client.waitFor((m) => m.method === 'notifications/tools/list_changed');
    expect(client.messages.some((m) => m.method === 'notifications/prompts/list_changed')).toBe(
      false,
    );
  });

  it('fails requests in flight when the daemon dies, and the next one reaches the new daemon', async () => {
    const first = await fake();
    const client = shim();
    await client.initialize();
    const hanging = client.request('test/hang', undefined, 'hang-1');
    // The daemon has the request and never answers it: only its death can end the call.
    await eventually(async () => expect(await methodsOf(first)).toContain('test/hang'));
    await first.kill('SIGKILL');
    const failed = await hanging;
    expect(failed.error.data.coffer_code).toBe('DAEMON_UNAVAILABLE');

    const second = await fake();
    expect((await client.request('test/echo-raw', { n: 2 })).result.received).toContain('"n":2');
    expect(await methodsOf(second)).toEqual([
      'initialize',
      'notifications/initialized',
      'test/echo-raw',
    ]);
  });

  it('finds a daemon restarted on the same port with a new token', async () => {
    const first = await fake(await freeRestartPort());
    const client = shim();
    await client.initialize();
    // Killed before the shim relays `notifications/initialized`, the line would find no
    // daemon and start a real one (the right thing for a user, a leak here).
    await eventually(async () =>
      expect(await methodsOf(first)).toContain('notifications/initialized'),
    );
    await first.kill('SIGKILL');
    const second = await fake(first.port);
    expect((await client.request('ping', undefined, 'after-restart')).result).toBeDefined();
    expect(await methodsOf(second)).toEqual(['initialize', 'notifications/initialized', 'ping']);
  });

  it('drops a client’s answer to a request of a session that is gone', async () => {
    const first = await fake();
    const client = shim();
    await client.initialize({ sampling: {} });
    const asked = client.request('test/ask', undefined, 'ask-1');
    const question = await client.waitFor((m) => m.method === 'sampling/createMessage');
    await first.kill('SIGKILL');
    expect((await asked).error).toBeDefined();
    const second = await fake();
    client.send({ jsonrpc: '2.0', id: question.id, result: { late: true } });
    expect((await client.request('ping')).result).toBeDefined();
    const bodies = (await lines(second)).map((entry) => entry.line);
    expect(bodies.some((body) => body.includes('late'))).toBe(false);
  });
});
