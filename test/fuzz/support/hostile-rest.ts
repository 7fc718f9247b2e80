import fc from 'fast-check';
import { hostileBody, jsonText } from './hostile-json.js';

/**
 * Hostile bodies and paths for the REST API: each field of a real request shape is
 * either plausible or any JSON at all, maps carry `__proto__`/`constructor` keys, and
 * fields may repeat or be missing.
 */
const quoted = (text: string): string => JSON.stringify(text);

const mapKey = fc.oneof(
  fc.constantFrom(
    'PATH',
    'API_KEY',
    'X-Token',
    '__proto__',
    '\\u005f_proto__',
    'constructor',
    'prototype',
    'toString',
    'polluted',
    'bad key',
    '',
  ),
  fc.string({ maxLength: 10 }),
);

/** A JSON object text from [key, value] pairs: keys may repeat. */
const mapText = fc
  .array(fc.tuple(mapKey, fc.oneof(fc.string({ maxLength: 20 }).map(quoted), jsonText)), {
    maxLength: 5,
  })
  .map(
    (pairs) =>
      `{${pairs.map(([key, value]) => `${key.startsWith('\\u') ? `"${key}"` : quoted(key)}:${value}`).join(',')}}`,
  );

const either = (plausible: fc.Arbitrary<string>) =>
  fc.oneof({ weight: 3, arbitrary: plausible }, { weight: 1, arbitrary: jsonText });

const serverName = fc.oneof(
  fc.stringMatching(/^[a-z0-9][a-z0-9-]{0,10}[a-z0-9]$/).map((name) => `fz-${name}`),
  fc.constantFrom('target', '__proto__', 'constructor', 'coffer', 'A', 'a__b', 'x'.repeat(40)),
  fc.string({ maxLength: 20 }),
);

const stringList = fc.array(fc.string({ maxLength: 12 }).map(quoted), { maxLength: 4 });

/** Members of a server definition, each plausible or not. */
const definitionFields = {
  transport: either(fc.constantFrom('"stdio"', '"http"', '"sse"', '"STDIO"')),
  command: either(fc.constantFrom('"true"', '""', '"/bin/true"')),
  args: either(stringList.map((items) => `[${items.join(',')}]`)),
  env: either(mapText),
  cwd: either(fc.constantFrom('"/tmp"', '""')),
  url: either(fc.constantFrom('"http://127.0.0.1:1/mcp"', '"ftp://x"', '"not a url"')),
  headers: either(mapText),
  secret_env: either(stringList.map((items) => `[${items.join(',')}]`)),
  secret_headers: either(stringList.map((items) => `[${items.join(',')}]`)),
  enabled: either(fc.constantFrom('true', 'false')),
  auto_enable_new_capabilities: either(fc.constantFrom('true', 'false')),
  shared: either(fc.constantFrom('true', 'false')),
};

/** `{"a":…,"b":…}` from optional members, some of them repeated. */
function objectText(fields: Record<string, fc.Arbitrary<string>>): fc.Arbitrary<string> {
  return fc
    .tuple(
      fc.record(fields, { requiredKeys: [] }),
      fc.array(fc.tuple(fc.constantFrom(...Object.keys(fields)), jsonText), { maxLength: 2 }),
    )
    .map(([present, repeated]) => {
      const members = [
        ...Object.entries(present).map(([key, value]) => `${quoted(key)}:${value}`),
        ...repeated.map(([key, value]) => `${quoted(key)}:${value}`),
      ];
      return `{${members.join(',')}}`;
    });
}

export const createServerText = objectText({
  name: either(serverName.map(quoted)),
  ...definitionFields,
});

export const patchServerText = objectText({ ...definitionFields, name: jsonText });

export const toggleText = objectText({
  type: either(fc.constantFrom('"tool"', '"prompt"', '"resource"', '"resource_template"')),
  keys: either(stringList.map((items) => `[${items.join(',')}]`)),
  enabled: either(fc.constantFrom('true', 'false')),
});

export const secretText = objectText({
  server: either(fc.constantFrom('"target"', '"nope"', '"__proto__"')),
  kind: either(fc.constantFrom('"env"', '"header"')),
  name: either(fc.constantFrom('"API_KEY"', '"X-Token"', '"__proto__"', '"constructor"', '"1BAD"')),
  value: either(fc.string({ maxLength: 30 }).map(quoted)),
});

/** Which route gets which body; refresh and test are left out (they dial the upstream). */
export const restRequest = fc.oneof(
  hostileBody(createServerText).map((body) => ({ method: 'POST', path: '/servers', body })),
  hostileBody(patchServerText).map((body) => ({ method: 'PATCH', path: '/servers/target', body })),
  hostileBody(toggleText).map((body) => ({
    method: 'POST',
    path: '/servers/target/capabilities',
    body,
  })),
  hostileBody(secretText).map((body) => ({ method: 'POST', path: '/secrets', body })),
  hostileBody(jsonText).map((body) => ({ method: 'POST', path: '/servers/target/enable', body })),
);

/** Path segments that break decoders, routers and lookups. */
const segment = fc.oneof(
  fc.constantFrom(
    '__proto__',
    'constructor',
    'target',
    '..',
    '%2e%2e',
    '%00',
    '%ff',
    '%E0%A4%A',
    '%',
    '%zz',
    'a%2Fb',
    'env',
    'header',
    'capabilities',
    'x'.repeat(3000),
  ),
  fc.string({ maxLength: 12 }).map((text) => encodeURIComponent(text)),
);

export const restPath = fc
  .tuple(
    fc.constantFrom('GET', 'POST', 'PATCH', 'DELETE', 'PUT'),
    fc.constantFrom('servers', 'secrets', 'activity', 'tools', 'openapi.json', 'status'),
    fc.array(segment, { maxLength: 3 }),
    fc.option(
      fc.constantFrom('?server=%ff', '?limit=-1', '?limit=1e309', '?since=x', '?q=%00&q=1'),
    ),
  )
  .map(([method, root, rest, query]) => ({
    method,
    path: `/api/v1/${[root, ...rest].join('/')}${query ?? ''}`,
  }));
