import { describe, expect, it } from 'vitest';
import { asJsonRpcMessage, parseJsonRpcLine } from '../../../src/upstream/jsonrpc-envelope.js';

describe('parseJsonRpcLine', () => {
  it('takes requests, notifications, results and errors as they are', () => {
    const lines = [
      { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'x', odd: [1] } },
      { jsonrpc: '2.0', id: 'a', method: 'ping' },
      { jsonrpc: '2.0', method: 'notifications/progress', params: { progressToken: 1 } },
      { jsonrpc: '2.0', id: 2, result: { content: [{ type: 'unknown-kind' }], extra: true } },
      { jsonrpc: '2.0', id: 3, error: { code: -32602, message: 'bad', data: { why: 1 } } },
      { jsonrpc: '2.0', id: null, error: { code: -32700, message: 'Parse error' } },
    ];
    for (const message of lines) expect(parseJsonRpcLine(JSON.stringify(message))).toEqual(message);
  });

  it('refuses what is not JSON or not a JSON-RPC 2.0 envelope', () => {
    expect(() => parseJsonRpcLine('Server started on stdio')).toThrow(SyntaxError);
    const bad = [
      [1, 2],
      { id: 1, method: 'x' },
      { jsonrpc: '1.0', id: 1, method: 'x' },
      { jsonrpc: '2.0', id: {}, method: 'x' },
      { jsonrpc: '2.0', id: 1, method: 7 },
      { jsonrpc: '2.0', id: 1, method: 'x', params: 'text' },
      { jsonrpc: '2.0', id: null, method: 'x' },
      { jsonrpc: '2.0', id: 1, result: 'text' },
      { jsonrpc: '2.0', result: {} },
      { jsonrpc: '2.0', id: 1, error: { code: 'E', message: 'x' } },
      { jsonrpc: '2.0', id: 1 },
    ];
    for (const value of bad) expect(asJsonRpcMessage(value)).toBeUndefined();
    expect(() => parseJsonRpcLine('{"jsonrpc":"2.0","id":1}')).toThrow(
      'not a JSON-RPC 2.0 message',
    );
  });
});
