import { describe, expect, it } from 'vitest';
import { errorCodes, type ErrorCode } from '../../../src/domain/errors.js';
import { errorStatus, statusForCode } from '../../../src/api/error-status.js';

describe('errorStatus', () => {
  it('gives every error code a status', () => {
    for (const code of errorCodes) {
      expect(statusForCode(code), code).toBeGreaterThanOrEqual(400);
    }
    expect(Object.keys(errorStatus).sort()).toEqual([...errorCodes].sort());
  });

  const expected: [ErrorCode, number][] = [
    ['INVALID_INPUT', 400],
    ['INVALID_SERVER_NAME', 400],
    ['UNAUTHORIZED', 401],
    ['FORBIDDEN', 403],
    ['SERVER_NOT_FOUND', 404],
    ['CAPABILITY_NOT_FOUND', 404],
    ['NOT_FOUND', 404],
    ['SERVER_EXISTS', 409],
    ['SERVER_DISABLED', 409],
    ['TOOL_DISABLED', 409],
    ['PROMPT_DISABLED', 409],
    ['RESOURCE_DISABLED', 409],
    ['PAYLOAD_TOO_LARGE', 413],
    ['INTERNAL', 500],
    ['STORE_FAILURE', 500],
    ['UPSTREAM_UNAVAILABLE', 503],
    ['DAEMON_UNAVAILABLE', 503],
    ['UPSTREAM_TIMEOUT', 504],
  ];
  it.each(expected)('maps %s to %i', (code, status) => {
    expect(statusForCode(code)).toBe(status);
  });

  it('never answers 401 for an upstream that wants credentials (clients would blame their token)', () => {
    expect(statusForCode('AUTH_REQUIRED')).not.toBe(401);
  });
});
