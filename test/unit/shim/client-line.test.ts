import { describe, expect, it } from 'vitest';
import { readClientLine } from '../../../src/shim/client-line.js';

/**
 * A client line is read as the daemon's socket channel reads one (decodeJsonText): what
 * the daemon would refuse is refused here, as an error the shim answers, never a crash.
 */

const bytes = (text: string): Buffer => Buffer.from(text, 'utf8');

function nested(depth: number): string {
  return `${'['.repeat(depth)}1${']'.repeat(depth)}`;
}

describe('readClientLine', () => {
  it('refuses a batch nested past the limit as one Invalid Request, without throwing', () => {
    expect(readClientLine(bytes(nested(5000)))).toEqual([
      {
        ok: false,
        id: null,
        error: {
          code: -32600,
          message: 'Invalid Request: The message is nested deeper than 100 levels',
          data: { coffer_code: 'INVALID_INPUT', hint: 'nest a message at most 100 levels deep' },
        },
      },
    ]);
  });

  it('refuses a request whose params nest past the limit, though its batch holds one item', () => {
    const line = `[{"jsonrpc":"2.0","id":1,"method":"x","params":{"a":${nested(200)}}}]`;
    const [only, ...rest] = readClientLine(bytes(line));
    expect(rest).toEqual([]);
    expect(only).toMatchObject({ ok: false, error: { code: -32600 } });
  });

  it('refuses bytes that are not UTF-8 instead of relaying U+FFFD', () => {
    const line = Buffer.concat([
      bytes('{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"k":"'),
      Buffer.from([0xff, 0xfe]),
      bytes('"}}'),
    ]);
    expect(readClientLine(line)).toEqual([
      {
        ok: false,
        id: null,
        error: {
          code: -32700,
          message: 'Parse error: The message is not valid UTF-8',
          data: { coffer_code: 'INVALID_INPUT', hint: 'send messages as UTF-8' },
        },
      },
    ]);
  });

  it('refuses a "__proto__" key, as the daemon does', () => {
    const line = '{"jsonrpc":"2.0","id":1,"method":"x","params":{"__proto__":{"a":1}}}';
    expect(readClientLine(bytes(line))).toMatchObject([
      { ok: false, id: null, error: { code: -32600, message: /__proto__/ } },
    ]);
  });

  it('passes a message on as the text it came as, and a batch item by item', () => {
    const line = '{"jsonrpc":"2.0","id":"a","method":"x","params":{"z":1.50,"s":"é\\u2028"}}';
    expect(readClientLine(bytes(line))).toMatchObject([{ ok: true, raw: line }]);
    const batch = readClientLine(bytes(`[${nested(98)},{"jsonrpc":"2.0","id":2,"method":"ping"}]`));
    expect(batch).toMatchObject([
      { ok: false, id: null, error: { code: -32600 } },
      { ok: true, raw: '{"jsonrpc":"2.0","id":2,"method":"ping"}' },
    ]);
  });
});
