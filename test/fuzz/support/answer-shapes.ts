import { expect } from 'vitest';
import { errorCodes } from '../../../src/domain/errors.js';
import { errorStatus } from '../../../src/api/error-status.js';
import type { RawResponse } from './raw-request.js';

type Json = Record<string, unknown>;

const isObject = (value: unknown): value is Json =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** A JSON-RPC 2.0 error object: integer code, string message. */
function expectRpcError(error: unknown, context: string): void {
  expect(isObject(error), context).toBe(true);
  const { code, message } = error as Json;
  expect(Number.isInteger(code), context).toBe(true);
  expect(typeof message, context).toBe('string');
}

/** One JSON-RPC message the daemon sent back: a response (result xor error) or a notification. */
function expectRpcMessage(message: unknown, context: string): void {
  expect(isObject(message), context).toBe(true);
  const m = message as Json;
  expect(m['jsonrpc'], context).toBe('2.0');
  if ('method' in m) return; // a notification or request of the server's own
  expect('result' in m !== 'error' in m, context).toBe(true);
  if ('error' in m) expectRpcError(m['error'], context);
}

/** The JSON-RPC messages of a 200 answer, whether plain JSON or an SSE stream. */
export function rpcMessages(response: RawResponse): unknown[] {
  const type = String(response.headers['content-type'] ?? '');
  if (type.startsWith('text/event-stream')) {
    return response.body
      .split('\n')
      .filter((line) => line.startsWith('data: '))
      .map((line) => JSON.parse(line.slice('data: '.length)) as unknown);
  }
  const parsed = JSON.parse(response.body) as unknown;
  return Array.isArray(parsed) ? parsed : [parsed];
}

/**
 * What /mcp may answer anything: a 4xx whose body is a JSON-RPC error envelope, a 202
 * with nothing (notifications and responses), or a 200 carrying JSON-RPC messages.
 * Never a 5xx, never something that is not JSON-RPC.
 */
export function expectMcpAnswer(response: RawResponse, context: string): void {
  const where = `${context} → ${response.status} ${response.body.slice(0, 300)}`;
  expect(response.status, where).toBeLessThan(500);
  if (response.status === 202) return;
  if (response.status === 200) {
    const messages = rpcMessages(response);
    // Issue #19: a request is answered or refused, never met with nothing. (A call the
    // client cancelled is the one exception, asserted where a test cancels.)
    expect(messages.length, `an empty 200: ${where}`).toBeGreaterThan(0);
    for (const message of messages) expectRpcMessage(message, where);
    return;
  }
  expect(response.status, where).toBeGreaterThanOrEqual(400);
  expect(String(response.headers['content-type']), where).toMatch(/^application\/json/);
  const body = JSON.parse(response.body) as Json;
  expect(body['jsonrpc'], where).toBe('2.0');
  expect('id' in body, where).toBe(true);
  expectRpcError(body['error'], where);
}

/**
 * What the REST API may answer anything: a 2xx, or a 4xx whose body is
 * `{error:{code,message,traceId}}` with a code of errors.ts and exactly the status that
 * code maps to. Never a 5xx.
 */
export function expectRestAnswer(response: RawResponse, context: string): void {
  const where = `${context} → ${response.status} ${response.body.slice(0, 300)}`;
  expect(response.status, where).toBeLessThan(500);
  if (response.status < 300) return;
  expect(response.status, where).toBeGreaterThanOrEqual(400);
  expect(String(response.headers['content-type']), where).toMatch(/^application\/json/);
  const body = JSON.parse(response.body) as Json;
  expect(isObject(body['error']), where).toBe(true);
  const error = body['error'] as Json;
  expect(errorCodes, where).toContain(error['code']);
  expect(errorStatus[error['code'] as keyof typeof errorStatus], where).toBe(response.status);
  expect(typeof error['message'], where).toBe('string');
  expect(error['traceId'], where).toMatch(/^[0-9a-f]{32}$/);
}
