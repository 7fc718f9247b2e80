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

describe('errorText, of what a server may answer', () => {
  it('cuts a long error page, and says how much it left out', () => {
    const page = `<html>${'x'.repeat(5_000)}</html>`;
    const text = errorText(new Error(page));
    expect(text.startsWith('<html>xxx')).toBe(true);
    expect(text).toMatch(/… \(4713 more characters\)$/);
  });

  it('says an answer that is not an MCP message as such, not as a lone bracket', async () => {
    const { JSONRPCMessageSchema } = await import('@modelcontextprotocol/sdk/types.js');
    const parsed = JSONRPCMessageSchema.safeParse({ hello: 'world' });
    expect(parsed.success).toBe(false);
    const text = errorText(parsed.error);
    expect(text).toMatch(/^its answer is not an MCP message \(.+\)$/);
    expect(text).not.toBe('[');
  });

  it("says an HTTP failure's status", async () => {
    const { StreamableHTTPError } =
      await import('@modelcontextprotocol/sdk/client/streamableHttp.js');
    expect(errorText(new StreamableHTTPError(502, 'Error POSTing to endpoint: bad gateway'))).toBe(
      'HTTP 502: Streamable HTTP error: Error POSTing to endpoint: bad gateway',
    );
  });
});
