import { describe, expect, it } from 'vitest';
import { CofferError } from '../../../src/domain/errors.js';
import {
  DEFAULT_PORT_RANGE,
  formatPortRange,
  parsePortRange,
  portRangeFromEnv,
} from '../../../src/daemon/port-range.js';

describe('port range', () => {
  it('defaults to 8000-8009', () => {
    expect(DEFAULT_PORT_RANGE).toEqual({ first: 8000, last: 8009 });
    expect(portRangeFromEnv({})).toEqual(DEFAULT_PORT_RANGE);
    expect(portRangeFromEnv({ COFFER_PORT_RANGE: '' })).toEqual(DEFAULT_PORT_RANGE);
    expect(portRangeFromEnv({ COFFER_PORT_RANGE: '  ' })).toEqual(DEFAULT_PORT_RANGE);
  });

  it('parses lo-hi from COFFER_PORT_RANGE', () => {
    expect(portRangeFromEnv({ COFFER_PORT_RANGE: '18000-18009' })).toEqual({
      first: 18000,
      last: 18009,
    });
    expect(parsePortRange(' 18000 - 18002 ')).toEqual({ first: 18000, last: 18002 });
    expect(parsePortRange('9000-9000')).toEqual({ first: 9000, last: 9000 });
    expect(parsePortRange('1-65535')).toEqual({ first: 1, last: 65535 });
  });

  it.each([
    'abc',
    '8000',
    '8000-',
    '-8009',
    '8000:8009',
    '9000-8000',
    '0-10',
    '1-65536',
    '8000-8009x',
    '8.5-9',
    '1e3-2e3',
    '100000-100001',
  ])('rejects %j with a clear INVALID_INPUT error', (text) => {
    let caught: unknown;
    try {
      parsePortRange(text);
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(CofferError);
    const error = caught as CofferError;
    expect(error.code).toBe('INVALID_INPUT');
    expect(error.message).toContain('COFFER_PORT_RANGE');
    expect(error.message).toContain(JSON.stringify(text));
    expect(error.hint).toMatch(/18000-18009/);
  });

  it('rejects a malformed environment value', () => {
    expect(() => portRangeFromEnv({ COFFER_PORT_RANGE: 'lots' })).toThrow(/COFFER_PORT_RANGE/);
  });

  it('formats ranges for messages', () => {
    expect(formatPortRange({ first: 8000, last: 8009 })).toBe('8000-8009');
    expect(formatPortRange({ first: 8000, last: 8000 })).toBe('8000-8000');
  });
});
