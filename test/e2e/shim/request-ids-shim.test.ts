import { describe, expect, it } from 'vitest';
import { shimSuite } from './support/shim-suite.js';

/**
 * A request id stays the client's own while its answer is due: a second request under
 * it is refused at once, so every request still ends with exactly one answer.
 */

const { shim } = shimSuite({ fixture: true });

describe('coffer shim: request ids', () => {
  it('refuses a second tools/call under an id in flight, and answers the first', async () => {
    const client = shim();
    await client.initialize({ sampling: {} });
    // The fixture's sample tool waits for the client's sampling answer: id 8 stays in flight.
    let answerSampling: (() => void) | undefined;
    const sampled = new Promise<void>((asked) => {
      client.onRequest('sampling/createMessage', () => {
        asked();
        return new Promise((answered) => {
          answerSampling = () =>
            answered({ role: 'assistant', content: { type: 'text', text: 'ok' }, model: 'm' });
        });
      });
    });
    const call = { name: 'fx__sample', arguments: { prompt: 'hold' } };
    client.send({ jsonrpc: '2.0', id: 8, method: 'tools/call', params: call });
    await sampled;
    client.send({ jsonrpc: '2.0', id: 8, method: 'tools/call', params: call });
    const refusal = await client.waitFor((m) => m.id === 8);
    expect(refusal.error).toMatchObject({
      code: -32600,
      message: expect.stringMatching(/already in use by a request in flight/) as unknown,
      data: { coffer_code: 'INVALID_INPUT', hint: expect.any(String) as unknown },
    });
    answerSampling!();
    const answer = await client.waitFor((m) => m.id === 8 && m.result !== undefined);
    expect(answer.result.isError).not.toBe(true);
    expect(client.messages.filter((m) => m.id === 8)).toHaveLength(2);
  });
});
