import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { FakeChannelDaemon, TOKEN, until } from './support/fake-channel-daemon.js';
import { relayFor } from './support/relay-harness.js';

/**
 * The shim's relay against a fake daemon channel on a real Unix socket: lines go out and
 * come back verbatim, and a lost daemon costs the client nothing but the requests that
 * were in flight.
 */

let fake: FakeChannelDaemon;

beforeEach(async () => {
  fake = await FakeChannelDaemon.start();
});

afterEach(async () => {
  await fake.close();
});

describe('relay: one channel', () => {
  it("passes the daemon's answer on as the bytes it wrote, the initialize answer read too", async () => {
    const { relay, client, initialize } = relayFor(fake);
    relay.start();
    await initialize();
    const answer = '{"jsonrpc":"2.0","id":"a-2","result":{"z":1.50,"s":"é\\u2028","n":[ 1 ]}}';
    fake.handler = (message, send) => {
      if (message.id === 'a-2') fake.writeRaw(answer);
      else send({ jsonrpc: '2.0', id: message.id, result: {} });
    };
    relay.fromClient(Buffer.from('{"jsonrpc":"2.0","id":"a-2","method":"tools/list"}'));
    await client.response('a-2');
    const at = client.lines.indexOf(answer);
    expect(at).toBeGreaterThan(-1);
    expect(client.kinds[at]).toBe('bytes');
  });

  it('says hello with the token and mode, then relays lines verbatim both ways', async () => {
    const { relay, client, initialize } = relayFor(fake, { hello: { mode: 'lean' } });
    relay.start();
    await initialize();
    expect(fake.hellos).toEqual([{ coffer: 'hello', version: 1, token: TOKEN, mode: 'lean' }]);
    const line =
      '{"jsonrpc":"2.0","id":"a-1","method":"x/y","params":{"z":1,"a":[1.50,"é\\u2028"]}}';
    fake.handler = (_message, send) => send({ verbatim: true });
    relay.fromClient(Buffer.from(line));
    await until(fake, () => fake.rawLines.includes(line));
    fake.handler = () => undefined;
    fake.broadcast({ jsonrpc: '2.0', id: 'srv-1', method: 'sampling/createMessage', params: {} });
    await client.waitFor((m) => m.id === 'srv-1');
    expect(client.lines).toContain(
      '{"jsonrpc":"2.0","id":"srv-1","method":"sampling/createMessage","params":{}}',
    );
    expect(fake.methods()).toEqual(['initialize', 'notifications/initialized', 'x/y']);
  });

  it('answers bad JSON, invalid messages and oversized ones itself, and splits batches', async () => {
    const { relay, client } = relayFor(fake);
    relay.fromClient(Buffer.from('this is not json'));
    relay.fromClient(Buffer.from('{"jsonrpc":"2.0","id":5,"method":7}'));
    relay.fromClient(Buffer.from('[]'));
    const huge = JSON.stringify({
      jsonrpc: '2.0',
      id: 'big',
      method: 'x',
      params: 'a'.repeat(5 * 1024 * 1024),
    });
    relay.fromClient(Buffer.from(huge));
    relay.fromClient(
      Buffer.from(
        '[{"jsonrpc":"2.0","id":1,"method":"ping"},{"jsonrpc":"2.0","id":2,"method":"ping"}]',
      ),
    );
    await client.response(2);
    expect(client.messages.find((m) => m.error?.code === -32700)?.id).toBeNull();
    expect((await client.response(5)).error.code).toBe(-32600);
    expect((await client.response('big')).error.message).toMatch(/^Message too large/);
    expect((await client.response(1)).result).toEqual({ method: 'ping' });
    expect(fake.rawLines).toEqual([
      '{"jsonrpc":"2.0","id":1,"method":"ping"}',
      '{"jsonrpc":"2.0","id":2,"method":"ping"}',
    ]);
  });

  it("echoes only a request's id: any other message's id may name one of the client's requests", async () => {
    const { relay, client } = relayFor(fake);
    relay.fromClient(Buffer.from('{"jsonrpc":"2.0","id":7}'));
    relay.fromClient(Buffer.from('{"jsonrpc":"2.0","id":8,"method":"ping"}'));
    await client.response(8);
    const refusal = client.messages.find((m) => m.error?.code === -32600);
    expect(refusal).toMatchObject({ id: null });
    expect(client.messages.some((m) => m.id === 7)).toBe(false);
  });

  it("turns an answer too large to relay into an error for the daemon, so the server's request ends", async () => {
    const { relay, client } = relayFor(fake);
    relay.fromClient(
      Buffer.from(
        JSON.stringify({ jsonrpc: '2.0', id: 3, result: { text: 'a'.repeat(5 * 1024 * 1024) } }),
      ),
    );
    await until(fake, () => fake.rawLines.length === 1);
    const sent = JSON.parse(fake.rawLines[0] ?? '') as { id: unknown; error: { message: string } };
    expect(sent).toMatchObject({ id: 3, error: { code: -32600 } });
    expect(sent.error.message).toMatch(/^The client's answer: Message too large/);
    expect(client.messages).toEqual([]);
  });
});

describe('relay: hello refused', () => {
  it('gives the refusal’s code and hint to the request, after looking once more', async () => {
    fake.helloAnswer = () => ({
      coffer: 'refused',
      code: 'UNAUTHORIZED',
      message: 'bad token',
      hint: 'the daemon restarted',
    });
    const harness = relayFor(fake);
    harness.send({ jsonrpc: '2.0', id: 1, method: 'tools/list' });
    const answer = await harness.client.response(1);
    expect(answer.error.data).toEqual({
      coffer_code: 'UNAUTHORIZED',
      hint: 'the daemon restarted',
    });
    expect(answer.error.message).toContain('bad token');
    expect(harness.discoveries()).toBe(2);
    expect(fake.received).toEqual([]);
  });

  it('does not look again when the hello itself is wrong', async () => {
    fake.helloAnswer = () => ({ coffer: 'refused', code: 'INVALID_INPUT', message: 'bad mode' });
    const harness = relayFor(fake, { hello: { mode: 'lean' } });
    harness.send({ jsonrpc: '2.0', id: 1, method: 'tools/list' });
    expect((await harness.client.response(1)).error.data.coffer_code).toBe('INVALID_INPUT');
    expect(harness.discoveries()).toBe(1);
  });

  it('gives up on a daemon that never answers the hello, when its deadline fires', async () => {
    fake.helloAnswer = () => undefined;
    const harness = relayFor(fake);
    harness.send({ jsonrpc: '2.0', id: 1, method: 'tools/list' });
    await until(fake, () => fake.hellos.length === 1);
    harness.timers.fireAll();
    await until(fake, () => fake.hellos.length === 2);
    harness.timers.fireAll();
    const answer = await harness.client.response(1);
    expect(answer.error.data.coffer_code).toBe('DAEMON_UNAVAILABLE');
    expect(answer.error.message).toMatch(/no answer to the hello/i);
  });

  it('passes discovery’s error on (an older daemon without a socket)', async () => {
    const { endpointOf } = await import('../../../src/shim/daemon-locator.js');
    const old = {
      pid: 42,
      port: 1,
      token: 't',
      startedAt: '',
      binaryPath: '',
      baseUrl: '',
      mcpUrl: '',
    };
    const harness = relayFor(fake, {
      discover: () => Promise.resolve().then(() => endpointOf(old)),
    });
    harness.send({ jsonrpc: '2.0', id: 1, method: 'tools/list' });
    const answer = await harness.client.response(1);
    expect(answer.error.message).toContain('older than this shim');
    expect(answer.error.data.hint).toContain('coffer stop');
  });
});
