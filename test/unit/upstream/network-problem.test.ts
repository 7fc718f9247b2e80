import { describe, expect, it } from 'vitest';
import { networkProblem } from '../../../src/upstream/network-problem.js';

/** What undici's fetch throws: TypeError('fetch failed') with the reason as its cause. */
function fetchFailed(code: string): Error {
  const reason = Object.assign(new Error(`connect ${code} 127.0.0.1:1`), { code });
  return new TypeError('fetch failed', { cause: reason });
}

describe('networkProblem', () => {
  it.each([
    ['ECONNREFUSED', 'nothing is listening there (connection refused)'],
    ['ENOTFOUND', 'its host name does not resolve'],
    ['ECONNRESET', 'the connection was reset'],
    ['UND_ERR_CONNECT_TIMEOUT', 'the connection timed out'],
    [
      'DEPTH_ZERO_SELF_SIGNED_CERT',
      'its TLS certificate is not trusted (DEPTH_ZERO_SELF_SIGNED_CERT)',
    ],
  ])('reads %s from the cause chain', (code, saying) => {
    expect(networkProblem(fetchFailed(code))).toBe(saying);
    // The SDK may wrap it once more.
    expect(networkProblem(new Error('send failed', { cause: fetchFailed(code) }))).toBe(saying);
  });

  it("reads the code from the legacy SSE transport's text, which keeps no cause", async () => {
    const { SseError } = await import('@modelcontextprotocol/sdk/client/sse.js');
    const error = new SseError(
      undefined,
      'TypeError: fetch failed: connect ECONNREFUSED 127.0.0.1:8621',
      undefined as never,
    );
    expect(networkProblem(error)).toBe('nothing is listening there (connection refused)');
    expect(networkProblem(new Error('ECONNREFUSEDX'))).toBeUndefined();
  });

  it('names a port fetch will not use', () => {
    const error = new TypeError('fetch failed', { cause: new Error('bad port') });
    expect(networkProblem(error)).toContain('"bad port"');
  });

  it('says nothing about errors that are not network failures', () => {
    expect(networkProblem(new TypeError('fetch failed'))).toBeUndefined();
    expect(networkProblem(Object.assign(new Error('x'), { code: 'EPERM' }))).toBeUndefined();
    expect(networkProblem('text')).toBeUndefined();
  });
});
