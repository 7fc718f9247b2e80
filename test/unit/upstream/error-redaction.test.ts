import { describe, expect, it } from 'vitest';
import { CofferError } from '../../../src/domain/errors.js';
import { UpstreamRpcError } from '../../../src/domain/ports.js';
import { errorRedactor } from '../../../src/upstream/error-redaction.js';

const KEY = 'key-ECHO500-abcdef123';
const TOKEN = 'tok-9f8e7d6c5b4a';

describe("errorRedactor: an upstream's own secrets are hidden in the errors it raises", () => {
  const redact = errorRedactor('probe', {
    extraHeaders: { 'X-Api-Key': KEY, Authorization: `Bearer ${TOKEN}` },
    extraEnv: {},
  });

  it('hides them in the message, hint and data of a Coffer error, and drops its cause', () => {
    const error = new CofferError('UPSTREAM_UNAVAILABLE', `failed: bad key ${KEY} / ${TOKEN}`, {
      hint: `check ${KEY}`,
      data: { server: 'probe', echoed: KEY },
      cause: new Error(`Error POSTing to endpoint: bad key ${KEY}`),
    });
    const hidden = redact(error) as CofferError;
    expect(hidden).toBeInstanceOf(CofferError);
    expect(hidden.code).toBe('UPSTREAM_UNAVAILABLE');
    expect(hidden.message).toBe(
      'failed: bad key [redacted: secret X-Api-Key] / [redacted: secret Authorization]',
    );
    expect(hidden.hint).toBe('check [redacted: secret X-Api-Key]');
    expect(hidden.data).toEqual({ server: 'probe', echoed: '[redacted: secret X-Api-Key]' });
    expect(hidden.cause).toBeUndefined();
  });

  it("hides them in an upstream's JSON-RPC error, keeping its code", () => {
    const hidden = redact(
      new UpstreamRpcError(-32602, `no ${KEY}`, { got: KEY }),
    ) as UpstreamRpcError;
    expect(hidden).toBeInstanceOf(UpstreamRpcError);
    expect(hidden.code).toBe(-32602);
    expect(JSON.stringify({ message: hidden.message, data: hidden.data })).not.toContain(KEY);
  });

  it('hides a secret that only the cause holds, and passes other errors as they are', () => {
    const caused = new CofferError('UPSTREAM_UNAVAILABLE', 'failed', { cause: new Error(KEY) });
    expect(redact(caused).cause).toBeUndefined();
    const clean = new CofferError('UPSTREAM_TIMEOUT', 'too slow');
    expect(redact(clean)).toBe(clean);
    const none = errorRedactor('probe', {});
    expect(none(caused)).toBe(caused);
  });
});
