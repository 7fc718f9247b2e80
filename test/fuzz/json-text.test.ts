import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { decodeJsonText, MAX_JSON_DEPTH } from '../../src/domain/json-text.js';
import { fuzzSettings, propertyParameters } from './support/fuzz-settings.js';
import { jsonText } from './support/hostile-json.js';

/** The shared body decoder, in process: cheap, so it gets many more runs than the daemon. */
const settings = fuzzSettings();
const runs = settings.numRuns * 10;

const hasProtoKey = (value: unknown): boolean =>
  value !== null &&
  typeof value === 'object' &&
  ((!Array.isArray(value) && Object.hasOwn(value, '__proto__')) ||
    Object.values(value).some(hasProtoKey));

describe('decodeJsonText', () => {
  it('round-trips any JSON value (without __proto__ keys) exactly as JSON.parse reads it', () => {
    fc.assert(
      fc.property(fc.jsonValue({ maxDepth: 8 }), (value) => {
        const text = JSON.stringify(value);
        const decoded = decodeJsonText(Buffer.from(text, 'utf8'));
        const reparsed = JSON.parse(text) as unknown;
        if (hasProtoKey(reparsed)) {
          expect(decoded).toMatchObject({ ok: false, problem: 'proto-key' });
        } else {
          expect(decoded.ok).toBe(true);
          if (decoded.ok) expect(JSON.stringify(decoded.value)).toBe(text);
        }
      }),
      propertyParameters('decode round-trip', settings, runs),
    );
  });

  it('never throws on any bytes, and says which problem it found', () => {
    fc.assert(
      fc.property(
        fc.oneof(
          fc.uint8Array({ maxLength: 200 }),
          jsonText.map((t) => Buffer.from(t)),
        ),
        (bytes) => {
          const decoded = decodeJsonText(bytes);
          if (!decoded.ok) {
            expect(['encoding', 'syntax', 'depth', 'proto-key']).toContain(decoded.problem);
            expect(decoded.message).toMatch(/^The request body /);
          }
        },
      ),
      propertyParameters('decode any bytes', settings, runs),
    );
  });

  it('accepts nesting up to the limit and refuses one level more, inside strings ignored', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: MAX_JSON_DEPTH + 50 }),
        fc.boolean(),
        (depth, objects) => {
          const open = objects ? '{"a":' : '[';
          const close = objects ? '}' : ']';
          const text = `${open.repeat(depth)}"[[[{{{"${close.repeat(depth)}`;
          const decoded = decodeJsonText(Buffer.from(text));
          expect(decoded.ok).toBe(depth <= MAX_JSON_DEPTH);
        },
      ),
      propertyParameters('decode depth', settings, runs),
    );
  });

  it('refuses invalid UTF-8 rather than replacing it, and never quotes the body', () => {
    const secret = 'hunter2-secret';
    const cases = [
      Buffer.from([0x7b, 0x22, 0x61, 0x22, 0x3a, 0x22, 0xff, 0x22, 0x7d]),
      Buffer.from(`{"value": ${secret}}`),
      Buffer.from(`{"value": "${secret}"`),
    ];
    for (const bytes of cases) {
      const decoded = decodeJsonText(bytes);
      expect(decoded.ok).toBe(false);
      if (!decoded.ok) expect(decoded.message).not.toContain('hunter2');
    }
  });

  it('names the text as its caller does, for each problem', () => {
    const cases = [Buffer.from([0xff]), Buffer.from('{'), Buffer.from('{"__proto__":1}')];
    for (const bytes of cases) {
      const decoded = decodeJsonText(bytes, 'The file');
      expect(decoded.ok).toBe(false);
      if (!decoded.ok) expect(decoded.message).toMatch(/^The file /);
    }
    const deep = decodeJsonText(Buffer.from('['.repeat(MAX_JSON_DEPTH + 1)), 'The file');
    expect(deep).toMatchObject({ ok: false, problem: 'depth' });
    if (!deep.ok) expect(deep.message).toMatch(/^The file /);
  });
});
