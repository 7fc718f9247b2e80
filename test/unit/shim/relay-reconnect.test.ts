import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { CofferError } from '../../../src/domain/errors.js';
import { FakeChannelDaemon, until } from './support/fake-channel-daemon.js';
import { INITIALIZE_PARAMS, relayFor } from './support/relay-harness.js';

/**
 * The daemon goes away under the relay (stopped, restarted, killed): what was in flight
 * fails at once, the next line opens a new channel with the client's handshake replayed,
 * and at stdin EOF answers already asked for are still waited for, within a bound.
 */

let fake: FakeChannelDaemon;

beforeEach(async () => {
  fake = await FakeChannelDaemon.start();
});

afterEach(async () => {
  await fake.close();
});

describe('relay: daemon lost', () => {
  it('fails the requests in flight, saying they may not have run', async () => {
    const { client, send, initialize } = relayFor(fake);
    await initialize();
    send({ jsonrpc: '2.0', id: 'hang-1', method: 'test/hang' });
    await until(fake, () => fake.methods().includes('test/hang'));
    fake.dropAll();
    const failed = await client.response('hang-1');
    expect(failed.error.data).toEqual({
      coffer_code: 'DAEMON_UNAVAILABLE',
      hint: 'the request may not have run',
    });
  });

  it('replays initialize and initialized on a new channel, then the line, then says list_changed', async () => {
    const { client, send, initialize, log } = relayFor(fake);
    await initialize();
    fake.dropAll();
    await log.logged('daemon channel lost');
    send({ jsonrpc: '2.0', id: 'after', method: 'tools/list' });
    expect((await client.response('after')).result).toEqual({ method: 'tools/list' });
    expect(fake.methods(2)).toEqual(['initialize', 'notifications/initialized', 'tools/list']);
    const replayed = fake.received.find((e) => e.connection === 2)!.message;
    expect(replayed.params).toEqual(INITIALIZE_PARAMS);
    expect(replayed.id).not.toBe('init');
    // The client saw one initialize answer, and a list_changed only for what may change.
    expect(client.messages.filter((m) => m.result?.capabilities !== undefined)).toHaveLength(1);
    const notices = client.messages.filter((m) => String(m.method).endsWith('list_changed'));
    expect(notices.map((m): unknown => m.method)).toEqual(['notifications/tools/list_changed']);
    expect(fake.hellos).toHaveLength(2);
  });

  it('fails a line when the daemon refuses the replayed initialize', async () => {
    const { client, send, initialize, log } = relayFor(fake);
    await initialize();
    fake.dropAll();
    await log.logged('daemon channel lost');
    fake.handler = (message, reply) => {
      if (message.method === 'initialize') {
        reply({ jsonrpc: '2.0', id: message.id, error: { code: -32600, message: 'nope' } });
      }
    };
    send({ jsonrpc: '2.0', id: 'after', method: 'tools/list' });
    const answer = await client.response('after');
    expect(answer.error.message).toContain('refused to re-initialize the session: nope');
    expect(fake.methods()).not.toContain('tools/list');
  });

  it('sends a new initialize of the client’s own as is, without replaying the old one', async () => {
    const { client, send } = relayFor(fake);
    fake.handler = () => undefined;
    send({ jsonrpc: '2.0', id: 'init-1', method: 'initialize', params: INITIALIZE_PARAMS });
    await until(fake, () => fake.methods().includes('initialize'));
    fake.dropAll();
    expect((await client.response('init-1')).error).toBeDefined();
    send({ jsonrpc: '2.0', id: 'init-2', method: 'initialize', params: INITIALIZE_PARAMS });
    await until(fake, () => fake.methods(2).length === 1);
    expect(fake.received.map((e): unknown => e.message.id)).toEqual(['init-1', 'init-2']);
  });

  it('drops the client’s answer to a request of the lost channel, and its cancellations', async () => {
    const { client, send, initialize } = relayFor(fake);
    await initialize();
    fake.broadcast({ jsonrpc: '2.0', id: 'srv-1', method: 'sampling/createMessage', params: {} });
    await client.waitFor((m) => m.id === 'srv-1');
    send({ jsonrpc: '2.0', id: 'h', method: 'test/hang' });
    await until(fake, () => fake.methods().includes('test/hang'));
    fake.dropAll();
    await client.response('h');
    send({ jsonrpc: '2.0', id: 'srv-1', result: { late: true } });
    send({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 'h' } });
    send({ jsonrpc: '2.0', id: 'p', method: 'ping' });
    await client.response('p');
    expect(fake.methods(2)).toEqual(['initialize', 'notifications/initialized', 'ping']);
  });

  it('relays the client’s answer to a live server request', async () => {
    const { client, send, initialize } = relayFor(fake);
    await initialize();
    fake.broadcast({ jsonrpc: '2.0', id: 'srv-2', method: 'roots/list' });
    await client.waitFor((m) => m.id === 'srv-2');
    send({ jsonrpc: '2.0', id: 'srv-2', result: { roots: [] } });
    await until(fake, () => fake.methods().includes('response:srv-2'));
  });
});

describe('relay: no daemon yet', () => {
  it('fails the initialize with discovery’s code, then replays it once a daemon is there', async () => {
    let startable = false;
    const refusal = new CofferError('PORT_RANGE_EXHAUSTED', 'no free port', {
      hint: 'set COFFER_PORT_RANGE',
    });
    const { client, send } = relayFor(fake, {
      discover: () => (startable ? Promise.resolve(fake.endpoint) : Promise.reject(refusal)),
    });
    send({ jsonrpc: '2.0', id: 'init', method: 'initialize', params: INITIALIZE_PARAMS });
    const failed = await client.response('init');
    expect(failed.error.data).toEqual({
      coffer_code: 'PORT_RANGE_EXHAUSTED',
      hint: 'set COFFER_PORT_RANGE',
    });
    send({ jsonrpc: '2.0', method: 'notifications/initialized' });
    startable = true;
    send({ jsonrpc: '2.0', id: 'list', method: 'tools/list' });
    expect((await client.response('list')).result).toEqual({ method: 'tools/list' });
    expect(fake.methods()).toEqual(['initialize', 'notifications/initialized', 'tools/list']);
    expect(fake.received[0]!.message.params).toEqual(INITIALIZE_PARAMS);
  });
});

describe('relay: close', () => {
  it('at stdin EOF waits for answers already asked for, then ends the channel', async () => {
    const { relay, client, send, initialize } = relayFor(fake);
    await initialize();
    fake.handler = () => undefined;
    send({ jsonrpc: '2.0', id: 'slow', method: 'tools/list' });
    await until(fake, () => fake.methods().includes('tools/list'));
    let closed = false;
    const closing = relay.close(5_000).then(() => (closed = true));
    await new Promise((resolve) => setImmediate(resolve));
    expect(closed).toBe(false);
    fake.broadcast({ jsonrpc: '2.0', id: 'slow', result: { late: 'but in time' } });
    await closing;
    expect((await client.response('slow')).result).toEqual({ late: 'but in time' });
    await until(fake, () => fake.ended === 1);
  });

  it('does not wait for a request the client cancelled (it gets no answer)', async () => {
    const { relay, send, initialize } = relayFor(fake);
    await initialize();
    send({ jsonrpc: '2.0', id: 'h', method: 'test/hang' });
    send({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 'h' } });
    await until(fake, () => fake.methods().includes('notifications/cancelled'));
    await relay.close(5_000);
    await until(fake, () => fake.ended === 1);
  });

  it('stops waiting when the bound fires', async () => {
    const { relay, timers, send, initialize } = relayFor(fake);
    await initialize();
    send({ jsonrpc: '2.0', id: 'h', method: 'test/hang' });
    await until(fake, () => fake.methods().includes('test/hang'));
    const closing = relay.close(5_000);
    expect(timers.count).toBe(1);
    timers.fireAll();
    await closing;
    await until(fake, () => fake.ended === 1);
  });

  it('opens no channel once closed', async () => {
    const { relay, client, send } = relayFor(fake);
    await relay.close(0);
    send({ jsonrpc: '2.0', id: 1, method: 'ping' });
    expect((await client.response(1)).error.message).toContain('shutting down');
    expect(fake.hellos).toEqual([]);
  });
});
