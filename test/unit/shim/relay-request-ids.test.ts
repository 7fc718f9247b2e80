import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { FakeChannelDaemon, until, type Message } from './support/fake-channel-daemon.js';
import { relayFor } from './support/relay-harness.js';

/**
 * Answers find their request by id alone, so while a request is waiting its id is its
 * own: a second request under it is refused at once, and the first still gets its answer.
 */

let fake: FakeChannelDaemon;

beforeEach(async () => {
  fake = await FakeChannelDaemon.start();
});

afterEach(async () => {
  await fake.close();
});

const call = (id: number): Message => ({
  jsonrpc: '2.0',
  id,
  method: 'tools/call',
  params: { name: 'fx__slow', arguments: {} },
});

describe('relay: request ids', () => {
  it('refuses a second request under an id still in flight, and answers the first', async () => {
    const { client, send, initialize } = relayFor(fake);
    await initialize();
    const held: Array<() => void> = [];
    fake.handler = (message, reply) => {
      if (message.method !== 'tools/call') return;
      held.push(() => reply({ jsonrpc: '2.0', id: message.id, result: {} }));
    };
    send(call(8));
    await until(fake, () => held.length === 1);
    send(call(8));
    const refusal = await client.response(8);
    expect(refusal.error).toEqual({
      code: -32600,
      message: 'Invalid Request: id 8 is already in use by a request in flight',
      data: {
        coffer_code: 'INVALID_INPUT',
        hint: 'give each request an id of its own; reuse one only once its answer has come',
      },
    });
    expect(fake.methods().filter((method) => method === 'tools/call')).toHaveLength(1);
    held[0]!();
    await client.waitFor((m) => m.id === 8 && m.result !== undefined);
    expect(client.messages.filter((m) => m.id === 8)).toEqual([
      expect.objectContaining({ error: expect.any(Object) as unknown }),
      { jsonrpc: '2.0', id: 8, result: {} },
    ]);
  });

  it('refuses a duplicate waiting in the backlog for a channel, too', async () => {
    const { client, send } = relayFor(fake);
    // No start(): both lines wait for the channel their first one opens.
    send(call(3));
    send(call(3));
    const refusal = await client.response(3);
    expect(refusal.error.message).toMatch(/already in use/);
    await client.waitFor((m) => m.id === 3 && m.result !== undefined);
    expect(fake.methods()).toEqual(['tools/call']);
  });

  it('takes an id again once its answer has come, and tells 8 from "8"', async () => {
    const { client, send, initialize } = relayFor(fake);
    await initialize();
    send(call(8));
    await client.waitFor((m) => m.id === 8);
    send(call(8));
    send({ ...call(8), id: '8' });
    await until(client, () => client.messages.filter((m) => m.result !== undefined).length === 4);
    expect(client.messages.filter((m) => m.error !== undefined)).toEqual([]);
  });
});
