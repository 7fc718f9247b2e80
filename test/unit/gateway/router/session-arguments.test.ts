import { afterEach, describe, expect, it } from 'vitest';
import type { Script } from './fake-upstream.js';
import { startSession, type Harness } from './session-harness.js';

let harness: Harness | undefined;
afterEach(async () => {
  await harness?.session.close();
  harness = undefined;
});

const echo: Script = {
  'tools/list': () => ({ tools: [{ name: 'echo', inputSchema: { type: 'object' } }] }),
  'tools/call': (params) => ({
    content: [{ type: 'text', text: JSON.stringify(params?.['arguments'] ?? null) }],
  }),
};

/** MCP's arguments are an object: anything else is Coffer's own -32602, not the upstream's. */
describe('tools/call arguments that are no object', () => {
  it.each([[[1]], ['text'], [null], [3]])(
    'refuses %j as Invalid params without calling the upstream',
    async (args) => {
      harness = await startSession({ fx: echo });
      await harness.initialize();
      const call = await harness.client.request(2, 'tools/call', {
        name: 'fx__echo',
        arguments: args,
      });
      expect(call['error']).toMatchObject({
        code: -32602,
        message: expect.stringContaining('"arguments" must be an object'),
        data: { coffer_code: 'INVALID_INPUT', hint: expect.any(String) },
      });
      const calls = harness.upstreams.connections.flatMap((c) => c.calledWith('tools/call'));
      expect(calls).toHaveLength(0);
    },
  );

  it('still relays an object, and a call without arguments', async () => {
    harness = await startSession({ fx: echo });
    await harness.initialize();
    const call = await harness.client.request(2, 'tools/call', {
      name: 'fx__echo',
      arguments: { a: 1 },
    });
    expect(call['result']).toEqual({ content: [{ type: 'text', text: '{"a":1}' }] });
    const bare = await harness.client.request(3, 'tools/call', { name: 'fx__echo' });
    expect(bare['result']).toEqual({ content: [{ type: 'text', text: 'null' }] });
  });
});
