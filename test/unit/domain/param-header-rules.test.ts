import { describe, expect, it } from 'vitest';
import {
  decodeHeaderValue,
  encodeHeaderValue,
  paramHeaderMismatch,
  paramHeadersFor,
  rawHeaderText,
  scanHeaderDeclarations,
} from '../../../src/domain/param-header-rules.js';

const schema = (properties: Record<string, unknown>) => ({ type: 'object', properties });
const header = (name: string) => ({ type: 'string', 'x-mcp-header': name });

/** The reason an inputSchema is invalid, or 'valid'. */
function verdict(inputSchema: unknown): string {
  const scan = scanHeaderDeclarations(inputSchema);
  return scan.valid ? 'valid' : scan.reason;
}

describe('x-mcp-header declarations (SEP-2243 Schema Extension)', () => {
  it('finds declarations along chains of properties, at any depth, in schema order', () => {
    const scan = scanHeaderDeclarations(
      schema({
        region: header('Region'),
        target: {
          type: 'object',
          properties: { replicas: { type: 'integer', 'x-mcp-header': 'Replicas' } },
        },
        dry: { type: 'boolean', 'x-mcp-header': 'Dry-Run' },
        query: { type: 'string' },
      }),
    );
    expect(scan).toEqual({
      valid: true,
      declarations: [
        { path: ['region'], header: 'Region', type: 'string' },
        { path: ['target', 'replicas'], header: 'Replicas', type: 'integer' },
        { path: ['dry'], header: 'Dry-Run', type: 'boolean' },
      ],
    });
  });

  it('accepts a schema without declarations, or no schema at all', () => {
    expect(scanHeaderDeclarations(schema({ a: { type: 'string' } }))).toEqual({
      valid: true,
      declarations: [],
    });
    expect(scanHeaderDeclarations(undefined)).toEqual({ valid: true, declarations: [] });
  });

  // The conformance suite's http-invalid-tool-headers tools, one per rule.
  it.each([
    ['an empty name', schema({ v: header('') }), 'MUST be a non-empty string'],
    ['a space', schema({ v: header('My Region') }), 'not a valid RFC 9110 token'],
    ['a colon', schema({ v: header('Region:Primary') }), 'not a valid RFC 9110 token'],
    ['a non-ASCII letter', schema({ v: header('Région') }), 'not a valid RFC 9110 token'],
    ['a control character', schema({ v: header('Region\t1') }), 'not a valid RFC 9110 token'],
    ['a non-string name', schema({ v: { type: 'string', 'x-mcp-header': 7 } }), 'non-empty'],
    ['an object', schema({ v: { type: 'object', 'x-mcp-header': 'Data' } }), 'got object'],
    ['an array', schema({ v: { type: 'array', 'x-mcp-header': 'Items' } }), 'got array'],
    ['a null type', schema({ v: { type: 'null', 'x-mcp-header': 'Nil' } }), 'got null'],
    ['a number', schema({ v: { type: 'number', 'x-mcp-header': 'Score' } }), 'got number'],
    ['no type', schema({ v: { 'x-mcp-header': 'Any' } }), 'got <none>'],
    ['the same name twice', schema({ a: header('Region'), b: header('Region') }), 'unique'],
    ['names differing in case', schema({ a: header('MyField'), b: header('myfield') }), 'unique'],
    [
      'a declaration under items',
      schema({ tags: { type: 'array', items: header('Tag') } }),
      "chain of 'properties'",
    ],
    ['a declaration under anyOf', { anyOf: [schema({ a: header('A') })] }, "chain of 'properties'"],
    ['a declaration on the root', { type: 'object', 'x-mcp-header': 'Root' }, '<root>'],
  ])('rejects a tool whose declaration has %s', (_what, inputSchema, reason) => {
    expect(verdict(inputSchema)).toContain(reason);
  });

  it('keeps the declarations of a schema whose only fault is a number property', () => {
    const scan = scanHeaderDeclarations(
      schema({ score: { type: 'number', 'x-mcp-header': 'Score' }, region: header('Region') }),
    );
    expect(scan.valid).toBe(false);
    expect(scan.declarations?.map((d) => d.header)).toEqual(['Score', 'Region']);
  });
});

describe('header values', () => {
  it('sends plain visible ASCII as is, and anything else as UTF-8 in a Base64 sentinel', () => {
    expect(encodeHeaderValue('us-west1')).toBe('us-west1');
    expect(encodeHeaderValue('us west 1')).toBe('us west 1');
    for (const value of ['Hello, 世界', ' padded ', 'line1\nline2', '', '=?base64?SGk=?=']) {
      const encoded = encodeHeaderValue(value);
      expect(encoded).toBe(`=?base64?${Buffer.from(value).toString('base64')}?=`);
      expect(decodeHeaderValue(encoded)).toBe(value);
    }
  });

  // The SEP's test-case table, as the conformance suite sends it.
  it.each([
    ['valid Base64', '=?base64?SGVsbG8=?=', 'Hello'],
    ['bad padding', '=?base64?SGVsbG8?=', undefined],
    ['non-alphabet characters', '=?base64?SGVs!!!bG8=?=', undefined],
    [
      'no valid UTF-8 inside',
      `=?base64?${Buffer.from([0xff, 0xfe]).toString('base64')}?=`,
      undefined,
    ],
    ['no prefix: literal', 'SGVsbG8=', 'SGVsbG8='],
    ['no suffix: literal', '=?base64?SGVsbG8=', '=?base64?SGVsbG8='],
    ['another case: literal', '=?BASE64?SGVsbG8=?=', '=?BASE64?SGVsbG8=?='],
  ])('decodes %s', (_what, value, decoded) => {
    expect(decodeHeaderValue(value)).toBe(decoded);
  });
});

describe('Mcp-Param headers of a call', () => {
  const declared = scanHeaderDeclarations(
    schema({
      region: header('Region'),
      priority: { type: 'integer', 'x-mcp-header': 'Priority' },
      verbose: { type: 'boolean', 'x-mcp-header': 'Verbose' },
    }),
  ).declarations!;
  const sent = (headers: Record<string, string>) => (name: string) => headers[name.toLowerCase()];

  it('are built from the primitive arguments given, none for null or absent ones', () => {
    expect(paramHeadersFor(declared, { region: 'Zürich', priority: 42, verbose: null })).toEqual({
      'Mcp-Param-Region': `=?base64?${Buffer.from('Zürich').toString('base64')}?=`,
      'Mcp-Param-Priority': '42',
    });
  });

  it('agree with the body when each carried value is mirrored (numbers compared as numbers)', () => {
    const args = { region: 'Zürich', priority: 42, verbose: false };
    const headers = { region: encodeHeaderValue('Zürich'), priority: '42.0', verbose: 'false' };
    expect(paramHeaderMismatch(declared, args, sent(headers))).toBeUndefined();
    // Absent or null in the body: no header expected, one sent is ignored.
    expect(paramHeaderMismatch(declared, { verbose: null }, sent({ region: 'x' }))).toBeUndefined();
  });

  it('disagree when a header is missing, broken or different, saying what to send', () => {
    const args = { region: 'eu-west-1', priority: 3 };
    expect(paramHeaderMismatch(declared, args, sent({ priority: '3' }))).toEqual({
      header: 'Mcp-Param-Region',
      body: 'the body carries region="eu-west-1" but the Mcp-Param-Region header is absent; send Mcp-Param-Region: eu-west-1',
    });
    expect(
      paramHeaderMismatch(declared, args, sent({ region: '=?base64?ZXU?=', priority: '3' }))?.body,
    ).toContain('the Mcp-Param-Region header carries an invalid Base64 sentinel value');
    expect(
      paramHeaderMismatch(declared, args, sent({ region: 'eu-west-1', priority: '4' }))?.body,
    ).toBe(
      'the Mcp-Param-Priority header decodes to "4" but the body carries priority=3; send Mcp-Param-Priority: 3',
    );
  });

  it('refuse a value sent unencoded outside ASCII, even one Node reads as the body value', () => {
    // A single byte 0xE9, read by Node as latin1 "é": the same text as the body, yet no
    // header text, which the spec has refused.
    const refused = paramHeaderMismatch(declared, { region: 'é' }, sent({ region: 'é' }));
    expect(refused?.body).toBe(
      'the Mcp-Param-Region header carries "é" as raw non-ASCII text; send non-ASCII values base64-encoded as =?base64?…?=: send Mcp-Param-Region: =?base64?w6k=?=',
    );
  });
});

describe('a header value sent unencoded', () => {
  it('reads as its sender meant it: UTF-8 bytes as UTF-8, other bytes as they came', () => {
    expect(rawHeaderText(Buffer.from('Zürich', 'utf8').toString('latin1'))).toBe('Zürich');
    expect(rawHeaderText('\u00e9t\u00e9')).toBe('été');
    expect(rawHeaderText('plain ASCII\tand tab')).toBeUndefined();
  });
});
