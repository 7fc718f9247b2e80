import { describe, expect, it } from 'vitest';
import { Cancellation } from '../../../src/domain/cancel-signal.js';
import type { JsonObject } from '../../../src/domain/ports.js';
import { InflightRequests } from '../../../src/gateway/inflight-requests.js';
import { InputBridge } from '../../../src/gateway/input-bridge.js';

const ENVELOPE = { _meta: { 'io.modelcontextprotocol/clientCapabilities': { elicitation: {} } } };

/**
 * The era bridge wired as the stateless service wires it: one shared upstream connection
 * (`fx`) whose questions name no request, so the request they belong to is the one in
 * flight to it that is not parked waiting for its answers.
 */
function harness() {
  const inflight = new InflightRequests();
  const bridge = new InputBridge();
  /** The upstream asks the client something, as its connection's peer would (later: over IPC). */
  const ask = async (message: string): Promise<JsonObject> => {
    await Promise.resolve();
    const related = inflight.sole('fx', (id) => !bridge.waiting(id));
    return bridge.request(
      'elicitation/create',
      { mode: 'form', message },
      {
        signal: new Cancellation(),
        ...(related === undefined ? {} : { relatedRequestId: related }),
      },
    );
  };
  /** A 2026-07-28 tools/call whose upstream handler is `handler`. */
  const call = (key: string, handler: () => Promise<JsonObject>, params: JsonObject = ENVELOPE) => {
    const done = inflight.begin('fx', key);
    return bridge.run(params, key, () => handler().finally(done));
  };
  return { bridge, ask, call };
}

const tokenOf = (result: JsonObject) => result['requestState'] as string;

describe('the era bridge: whose question is it', () => {
  it('gives a new question to the running call, not to one parked on its answers', async () => {
    const { bridge, ask, call } = harness();
    const abandoned = await call('a', async () => ({ answer: await ask('first?') }));
    expect(abandoned).toMatchObject({ resultType: 'input_required' });
    expect(bridge.waiting('a')).toBe(true);

    // The client of `a` never comes back; `b` still gets its own question, and its answer.
    const asked = await call('b', async () => ({ answer: await ask('second?') }));
    expect(asked).toMatchObject({
      resultType: 'input_required',
      inputRequests: { 'coffer-1': { params: { message: 'second?' } } },
    });
    const resumed = await bridge.run(
      {
        ...ENVELOPE,
        requestState: tokenOf(asked),
        inputResponses: { 'coffer-1': { action: 'accept' } },
      },
      'b',
      () => Promise.reject(new Error('a retry resumes, it does not start')),
    );
    expect(resumed).toEqual({ answer: { action: 'accept' } });
    expect(bridge.waiting('b')).toBe(false);
    expect(bridge.waiting('a')).toBe(true);
  });

  it('refuses a question two running calls could have asked, rather than guess', async () => {
    const { ask, call } = harness();
    let release: () => void = () => {};
    const hold = new Promise<JsonObject>((resolve) => (release = () => resolve({})));
    const first = call('a', () => hold);
    const second = call('b', () => hold);
    await expect(ask('whose?')).rejects.toThrow(
      /cannot tell which 2026-07-28 request elicitation\/create belongs to \(2 in flight\)/,
    );
    release();
    await expect(Promise.all([first, second])).resolves.toEqual([{}, {}]);
  });

  it('knows a call is parked only until its retry', async () => {
    const { bridge, ask, call } = harness();
    const asked = await call('a', async () => ({ answer: await ask('first?') }));
    expect(bridge.waiting('a')).toBe(true);
    await bridge.run(
      {
        ...ENVELOPE,
        requestState: tokenOf(asked),
        inputResponses: { 'coffer-1': { action: 'decline' } },
      },
      'a',
      () => Promise.reject(new Error('unused')),
    );
    expect(bridge.waiting('a')).toBe(false);
  });
});
