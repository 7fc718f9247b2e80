import {
  InvalidClientError,
  InvalidTokenError,
} from '@modelcontextprotocol/sdk/server/auth/errors.js';
import { describe, expect, it } from 'vitest';
import { errorText } from '../../../src/upstream/error-text.js';

describe('errorText', () => {
  it("gives an error's first line", () => {
    expect(errorText(new Error('first\nsecond'))).toBe('first');
  });

  it('names an OAuth error by its code, with or without a description', () => {
    expect(errorText(new InvalidTokenError(''))).toBe('the server answered "invalid_token"');
    expect(errorText(new InvalidClientError('unknown client'))).toBe(
      'unknown client (the server answered "invalid_client")',
    );
  });

  it('falls back to the name, and to words for non-errors', () => {
    expect(errorText(new TypeError(''))).toBe('TypeError');
    expect(errorText(42)).toBe('unknown error');
  });
});
