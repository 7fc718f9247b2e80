import { describe, expect, it } from 'vitest';
import { answerId, DaemonMessage } from '../../../src/shim/daemon-message.js';

const line = (text: string): Buffer => Buffer.from(text);

describe('answerId: an answer read from its first bytes', () => {
  it('reads a number or a plain string id of a result or an error', () => {
    expect(answerId(line('{"jsonrpc":"2.0","id":42,"result":{"a":1}}'))).toBe(42);
    expect(answerId(line('{"jsonrpc":"2.0","id":-7,"result":{}}'))).toBe(-7);
    expect(answerId(line('{"jsonrpc":"2.0","id":"req-1","error":{"code":-1}}'))).toBe('req-1');
    expect(answerId(line('{"jsonrpc":"2.0","id":"","result":{}}'))).toBe('');
  });

  it('leaves everything else to JSON.parse: never a wrong id, at worst a slow read', () => {
    const others = [
      '{"jsonrpc":"2.0","id":1,"method":"roots/list"}',
      '{"jsonrpc":"2.0","method":"notifications/progress","params":{}}',
      '{"id":1,"jsonrpc":"2.0","result":{}}',
      '{"jsonrpc":"2.0","id":"a\\"b","result":{}}',
      '{"jsonrpc":"2.0","id":null,"error":{"code":-32700}}',
      '{"jsonrpc":"2.0","id":-,"result":{}}',
      '{"jsonrpc":"2.0","id":"unterminated',
      `{"jsonrpc":"2.0","id":"${'x'.repeat(300)}","result":{}}`,
      '{"jsonrpc":"2.0","id":1}',
    ];
    for (const text of others) expect(answerId(line(text)), text).toBeUndefined();
  });
});

describe('DaemonMessage', () => {
  it('keeps an answer as its exact bytes and parses it only when asked', () => {
    const bytes = line('{"jsonrpc":"2.0","id":3,"result":{"z":1.50,"s":"é\\u2028"}}');
    const message = DaemonMessage.answer(bytes);
    expect(message?.kind).toBe('response');
    expect(message?.id).toBe(3);
    expect(message?.raw).toBe(bytes);
    expect(message?.message).toEqual({ jsonrpc: '2.0', id: 3, result: { z: 1.5, s: 'é\u2028' } });
  });

  it('classifies a parsed message as the relay does', () => {
    const request = { jsonrpc: '2.0', id: 'srv-1', method: 'sampling/createMessage' };
    const parsed = DaemonMessage.parsed(request, JSON.stringify(request));
    expect([parsed.kind, parsed.id, parsed.message]).toEqual(['request', 'srv-1', request]);
  });
});
