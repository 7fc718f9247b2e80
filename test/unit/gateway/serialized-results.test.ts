import { describe, expect, it } from 'vitest';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { SerializedResults } from '../../../src/gateway/serialized-results.js';

describe('SerializedResults', () => {
  const result = { tools: [{ name: 'a', description: 'quote " and \u2028 line sep' }] };
  const answer = (id: string | number, value: object = result): JSONRPCMessage =>
    ({ jsonrpc: '2.0', id, result: value }) as JSONRPCMessage;

  it('writes a kept result as the same JSON-RPC message, under each request id', () => {
    const results = new SerializedResults();
    results.keep(result);
    for (const id of [1, 'x"y', 2]) {
      expect(JSON.parse(results.serialize(answer(id)))).toEqual(
        JSON.parse(JSON.stringify(answer(id))),
      );
    }
  });

  it('serialises a kept result once: later changes to it are not seen', () => {
    const results = new SerializedResults();
    const kept = { items: [1] };
    results.keep(kept);
    results.serialize(answer(1, kept));
    kept.items.push(2);
    expect(JSON.parse(results.serialize(answer(2, kept)))).toMatchObject({
      result: { items: [1] },
    });
  });

  it('serialises anything not kept afresh', () => {
    const results = new SerializedResults();
    const other = { items: [1] };
    results.serialize(answer(1, other));
    other.items.push(2);
    expect(JSON.parse(results.serialize(answer(2, other)))).toMatchObject({
      result: { items: [1, 2] },
    });
    const notification = { jsonrpc: '2.0', method: 'notifications/progress' } as JSONRPCMessage;
    expect(results.serialize(notification)).toBe(JSON.stringify(notification));
  });
});
