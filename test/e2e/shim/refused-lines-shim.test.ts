import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ShimClient, type Message } from '../../integration/shim/support/shim-client.js';
import { createCofferHome, type CofferHome } from './support/coffer-home.js';

/**
 * Lines the daemon's socket channel refuses are refused by the shim itself, as the daemon
 * would (decodeJsonText), and the shim carries on: a hostile line costs the client that
 * line, never the shim or a mangled message relayed on.
 */

let coffer: CofferHome;
const shims: ShimClient[] = [];

function shim(): ShimClient {
  const started = ShimClient.spawn(coffer.env);
  shims.push(started);
  return started;
}

beforeAll(async () => {
  coffer = await createCofferHome();
});

afterEach(async () => {
  for (const client of shims.splice(0)) {
    expect(await client.close()).toEqual({ code: 0, signal: null });
    expect(client.nonJsonRpcLines()).toEqual([]);
    expect(client.stderr).toBe('');
  }
});

afterAll(async () => {
  expect(await coffer.cleanup(), 'processes left behind').toEqual([]);
});

/** The answer to `id`, or a failure as soon as the shim exits (the crash this guards against). */
async function answerOf(client: ShimClient, id: number): Promise<Message> {
  const died = client.exited.then((exit) => {
    throw new Error(`the shim exited (${JSON.stringify(exit)}): ${client.stderr.slice(-500)}`);
  });
  return Promise.race([client.request('ping', undefined, id), died]);
}

const nested = (depth: number): string => `${'['.repeat(depth)}1${']'.repeat(depth)}`;

describe('coffer shim: lines it refuses', () => {
  it('answers a batch nested 5000 deep with Invalid Request, then the next request', async () => {
    const client = shim();
    await client.initialize();
    client.writeLine(nested(5000));
    const ping = await answerOf(client, 2);
    expect(ping.result).toEqual({});
    expect(client.messages.find((m) => m.id === null)).toMatchObject({
      error: { code: -32600, message: expect.stringMatching(/nested deeper than 100/) as unknown },
    });
  });

  it('answers bytes that are not UTF-8 with a parse error instead of relaying U+FFFD', async () => {
    const client = shim();
    await client.initialize();
    const line = Buffer.concat([
      Buffer.from('{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"x'),
      Buffer.from([0xff]),
      Buffer.from('"}}\n'),
    ]);
    client.child.stdin!.write(line);
    const ping = await answerOf(client, 4);
    expect(ping.result).toEqual({});
    const refusal = client.messages.find((m) => m.id === null);
    expect(refusal?.error).toMatchObject({ code: -32700, message: /not valid UTF-8/ });
    expect(client.messages.some((m) => m.id === 3)).toBe(false);
  });
});
