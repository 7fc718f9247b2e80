import fc from 'fast-check';

/**
 * Hostile request bodies, as bytes: JSON TEXT is generated (not values), so duplicate
 * keys, `__proto__` keys, escapes, huge numbers and deep nesting reach the daemon
 * exactly as written, and some bodies are then broken (truncated, invalid UTF-8).
 */

/** Keys that reach lookups, merges and schema parsers; duplicates come naturally. */
const KEYS = [
  'jsonrpc',
  'id',
  'method',
  'params',
  'name',
  'arguments',
  'uri',
  '_meta',
  'progressToken',
  '__proto__',
  '\\u005f_proto__',
  'constructor',
  'prototype',
  'toString',
  'hasOwnProperty',
  'valueOf',
  'enabled',
  'shared',
  'args',
  'env',
  'headers',
  'transport',
  'command',
  'url',
  'type',
  'keys',
  'value',
  'server',
  'kind',
  'polluted',
];

const quoted = (text: string): string => JSON.stringify(text);

/** Numbers as text: beyond double precision, beyond double range, negative zero, exponents. */
const numberText = fc.oneof(
  fc.integer().map(String),
  fc.double({ noNaN: true, noDefaultInfinity: true }).map(String),
  fc.constantFrom(
    '99999999999999999999999999999999',
    '-99999999999999999999999999999999',
    '1e400',
    '-0',
    '1.5',
    '9007199254740993',
    '0.0000000000000000000000001',
  ),
  fc.bigInt({ min: -(10n ** 60n), max: 10n ** 60n }).map(String),
);

const stringText = fc.oneof(
  fc.string({ maxLength: 40 }).map(quoted),
  fc.string({ unit: 'binary', maxLength: 40 }).map(quoted),
  fc.constantFrom('"\\ud800"', '"\\u0000"', '"a\\nb"', '"\\/"', quoted('x'.repeat(70_000))),
);

const scalarText = fc.oneof(fc.constantFrom('null', 'true', 'false'), numberText, stringText);

const keyText = fc.oneof(
  { weight: 4, arbitrary: fc.constantFrom(...KEYS).map((key) => `"${key}"`) },
  { weight: 1, arbitrary: fc.string({ maxLength: 12 }).map(quoted) },
);

/** Any JSON text, objects built pair by pair so keys repeat and `__proto__` stays a key. */
export const jsonText: fc.Arbitrary<string> = fc.letrec<{ value: string }>((tie) => ({
  value: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    scalarText,
    fc.array(tie('value'), { maxLength: 5 }).map((items) => `[${items.join(',')}]`),
    fc
      .array(fc.tuple(keyText, tie('value')), { maxLength: 6 })
      .map((pairs) => `{${pairs.map(([key, value]) => `${key}:${value}`).join(',')}}`),
  ),
})).value;

/** Nesting from harmless to absurd, inside an otherwise plausible message. */
export const deepText = fc
  .record({
    depth: fc.oneof(fc.integer({ min: 90, max: 110 }), fc.integer({ min: 1_000, max: 200_000 })),
    array: fc.boolean(),
  })
  .map(({ depth, array }) =>
    array ? '['.repeat(depth) + ']'.repeat(depth) : '{"a":'.repeat(depth) + '1' + '}'.repeat(depth),
  );

/** Payloads that pollute Object.prototype in code that merges or assigns naively. */
export const pollutionText = fc
  .constantFrom('args', 'env', 'enabled', 'polluted', 'sampling', 'headers')
  .chain((key) =>
    fc.constantFrom(
      `{"__proto__":{"${key}":["polluted"]}}`,
      `{"constructor":{"prototype":{"${key}":false}}}`,
      `{"\\u005f_proto__":{"${key}":"polluted"}}`,
      `{"prototype":{"${key}":"polluted"},"constructor":"polluted"}`,
    ),
  );

/** Methods a client may send, real ones and names that collide with Object.prototype. */
export const METHODS = [
  'initialize',
  'ping',
  'tools/list',
  'tools/call',
  'prompts/list',
  'prompts/get',
  'resources/list',
  'resources/read',
  'resources/templates/list',
  'resources/subscribe',
  'resources/unsubscribe',
  'completion/complete',
  'logging/setLevel',
  'notifications/initialized',
  'notifications/cancelled',
  'notifications/progress',
  'sampling/createMessage',
  '__proto__',
  'constructor',
  'toString',
  'hasOwnProperty',
  '',
  'rpc.discover',
  'x'.repeat(10_000),
];

export const idText = fc.oneof(
  fc.integer({ min: 0, max: 1_000_000 }).map(String),
  numberText,
  stringText,
  fc.constantFrom('null', '{}', '[]', 'true'),
);

/** Targets the fixture upstream knows (echo) and names it does not. */
const targetText = fc.oneof(
  fc.constantFrom(
    '"fx__echo"',
    '"echo"',
    '"coffer__search_tools"',
    '"coffer://fx/x"',
    '"constructor"',
  ),
  stringText,
);

const paramsText = fc.oneof(
  jsonText,
  pollutionText,
  fc
    .tuple(fc.constantFrom('name', 'uri'), targetText, jsonText)
    .map(([field, target, args]) => `{"${field}":${target},"arguments":${args}}`),
);

/** One JSON-RPC-shaped message, each member possibly missing, mistyped or repeated. */
export const messageText = fc
  .record(
    {
      jsonrpc: fc.oneof(fc.constant('"2.0"'), scalarText),
      id: idText,
      method: fc.oneof(
        { weight: 4, arbitrary: fc.constantFrom(...METHODS).map(quoted) },
        { weight: 1, arbitrary: scalarText },
      ),
      params: paramsText,
      result: jsonText,
      error: jsonText,
      extra: fc.tuple(keyText, jsonText).map(([key, value]) => `${key}:${value}`),
    },
    { requiredKeys: [] },
  )
  .map(
    (fields) =>
      `{${Object.entries(fields)
        .map(([key, value]) => (key === 'extra' ? value : `"${key}":${value}`))
        .join(',')}}`,
  );

/** Ways to break a body on the way: none, truncation, bytes that are not UTF-8. */
const INVALID_UTF8 = [
  [0xff],
  [0xc3, 0x28],
  [0xc0, 0xaf],
  [0xed, 0xa0, 0x80],
  [0xf4, 0x90, 0x80, 0x80],
  [0xe2, 0x82],
];

function breakBody(text: string, how: number, at: number): Buffer {
  const bytes = Buffer.from(text, 'utf8');
  const cut = Math.min(at, bytes.length);
  if (how === 1) return bytes.subarray(0, cut);
  if (how === 2) {
    const bad = Buffer.from(INVALID_UTF8[at % INVALID_UTF8.length]!);
    return Buffer.concat([bytes.subarray(0, cut), bad, bytes.subarray(cut)]);
  }
  return bytes;
}

/** A body as bytes: mostly intact, sometimes cut short or carrying invalid UTF-8. */
export function hostileBody(text: fc.Arbitrary<string>): fc.Arbitrary<Buffer> {
  return fc
    .tuple(text, fc.integer({ min: 0, max: 5 }), fc.nat({ max: 400 }))
    .map(([body, how, at]) => breakBody(body, how, at));
}

/** Bodies for /mcp: single messages, batches, deep and polluting ones, any JSON at all. */
export const mcpBody = hostileBody(
  fc.oneof(
    { weight: 5, arbitrary: messageText },
    {
      weight: 2,
      arbitrary: fc.array(messageText, { maxLength: 8 }).map((m) => `[${m.join(',')}]`),
    },
    { weight: 1, arbitrary: deepText },
    { weight: 1, arbitrary: pollutionText },
    { weight: 1, arbitrary: jsonText },
  ),
);

/** Content types a client (or a cross-site form) may claim. */
export const contentType = fc.constantFrom(
  'application/json',
  'application/json; charset=utf-8',
  'text/plain',
  'application/x-www-form-urlencoded',
  'multipart/form-data; boundary=x',
  '',
);
