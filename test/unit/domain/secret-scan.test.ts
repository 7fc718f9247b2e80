import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  buildSecretMatcher,
  encodedForms,
  redactionFor,
  type KnownSecret,
} from '../../../src/domain/secret-scan.js';

const token: KnownSecret = {
  name: 'GITHUB_TOKEN',
  value: 'sv3cr3t-Value/42+x',
  owners: ['github'],
};
const other: KnownSecret = {
  name: 'DB_PASSWORD',
  value: 'hunter2hunter2',
  owners: ['db', 'backup'],
};
const matcher = buildSecretMatcher([token, other]);

const wrap = (inner: string): string => `{"query":"look ${inner} here"}`;

describe('buildSecretMatcher', () => {
  const encodings: Record<string, (v: string) => string> = {
    exact: (v) => v,
    base64: (v) => Buffer.from(v).toString('base64'),
    base64url: (v) => Buffer.from(v).toString('base64url'),
    'URL-encoding': (v) => encodeURIComponent(v),
    'form encoding': (v) => encodeURIComponent(`${v} `).replaceAll('%20', '+'),
    hex: (v) => Buffer.from(v).toString('hex'),
    'upper-case hex': (v) => Buffer.from(v).toString('hex').toUpperCase(),
  };
  for (const [label, encode] of Object.entries(encodings))
    it(`finds a secret in ${label}, by name and owners only`, () => {
      const hits = matcher.find(wrap(encode(token.value)));
      expect(hits).toEqual([{ name: 'GITHUB_TOKEN', owners: ['github'] }]);
    });

  it('finds a secret base64-encoded inside a longer blob at every byte offset', () => {
    for (const prefix of ['', 'a', 'ab', 'abc', 'abcd']) {
      const blob = Buffer.from(`${prefix}${other.value}tail`).toString('base64');
      expect(
        matcher.find(blob).map((h) => h.name),
        prefix,
      ).toEqual(['DB_PASSWORD']);
    }
  });

  it('redacts every form and reports each secret once', () => {
    const text = `${token.value} and ${Buffer.from(token.value).toString('hex')} and ${other.value}`;
    const result = matcher.redact(text);
    expect(result.text).toBe(
      `${redactionFor('GITHUB_TOKEN')} and ${redactionFor('GITHUB_TOKEN')} and ${redactionFor('DB_PASSWORD')}`,
    );
    expect(result.hits.map((h) => h.name).sort()).toEqual(['DB_PASSWORD', 'GITHUB_TOKEN']);
    expect(result.text).not.toContain(token.value);
  });

  it('is empty, and finds nothing, without secrets or with only too-short ones', () => {
    for (const m of [
      buildSecretMatcher([]),
      buildSecretMatcher([{ name: 'PIN', value: '1234', owners: [] }]),
    ]) {
      expect(m.empty).toBe(true);
      expect(m.find('1234 anything')).toEqual([]);
      expect(m.redact('1234').text).toBe('1234');
    }
  });

  it('finds the credential of a header value alone, without its scheme word', () => {
    const header = buildSecretMatcher([
      { name: 'Authorization', value: 'Bearer webtoken-abcdef123456789', owners: ['web'] },
    ]);
    for (const text of ['webtoken-abcdef123456789', 'Bearer webtoken-abcdef123456789'])
      expect(header.redact(wrap(text)).text).toBe(wrap(redactionFor('Authorization')));
    const basic = Buffer.from('user:hunter2pass').toString('base64');
    expect(
      buildSecretMatcher([{ name: 'B', value: `Basic ${basic}`, owners: [] }]).find(basic),
    ).toHaveLength(1);
    // A short word after the scheme is no credential to look for on its own.
    const short = buildSecretMatcher([{ name: 'S', value: 'Token abc', owners: [] }]);
    expect(short.find('abc and Token abc')).toEqual([{ name: 'S', owners: [] }]);
    expect(short.find('abc alone')).toEqual([]);
  });

  it('treats regex characters in a secret literally', () => {
    const dotted = buildSecretMatcher([{ name: 'DOTS', value: 'a.b.c.d.e.f', owners: [] }]);
    expect(dotted.find('aXbXcXdXeXf')).toEqual([]);
    expect(dotted.find('a.b.c.d.e.f')).toHaveLength(1);
  });

  it('finds a secret with quotes, backslashes or newlines inside JSON text, where they are escaped', () => {
    const value = 'pa"ss\\word\n42';
    const quoted = buildSecretMatcher([{ name: 'QUOTED', value, owners: [] }]);
    expect(quoted.find(JSON.stringify({ arguments: { q: `x${value}y` } }))).toEqual([
      { name: 'QUOTED', owners: [] },
    ]);
    expect(quoted.find(value)).toHaveLength(1);
  });

  it('finds any secret in any of its forms inside arbitrary text', () => {
    fc.assert(
      fc.property(
        fc.string({ minLength: 8, maxLength: 40 }),
        fc.string(),
        fc.string(),
        fc.constantFrom(...Object.values(encodings)),
        (value, before, after, encode) => {
          const m = buildSecretMatcher([{ name: 'S', value, owners: ['x'] }]);
          expect(m.find(`${before}${encode(value)}${after}`).map((h) => h.name)).toEqual(['S']);
          expect(m.redact(`${before}${value}${after}`).text).toContain(redactionFor('S'));
        },
      ),
    );
  });

  it('does not flag ordinary text that lacks the secret', () => {
    fc.assert(
      fc.property(fc.stringMatching(/^[a-z ,.]{0,200}$/), (text) => {
        expect(matcher.find(text)).toEqual([]);
      }),
    );
  });

  it('lists the exact value among its forms', () => {
    expect(encodedForms(token.value)).toContain(token.value);
  });
});
