import { describe, expect, it } from 'vitest';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import {
  SerializedResults,
  wireLength,
  wireString,
} from '../../../src/gateway/serialized-results.js';

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

  it('encodes a kept result as chunks holding the very bytes a fresh serialisation has', () => {
    const results = new SerializedResults();
    results.keep(result);
    const kept = new Set<Buffer>();
    for (const id of [1, 'x"y', 'é✓', 2]) {
      const fresh = Buffer.from(`${JSON.stringify(answer(id))}\n`);
      const wire = results.encode(answer(id), '\n');
      expect(typeof wire).not.toBe('string');
      expect(Buffer.concat(wire as Buffer[]).equals(fresh)).toBe(true);
      expect(wireLength(wire)).toBe(fresh.length);
      expect(wireString(wire)).toBe(fresh.toString('utf8'));
      kept.add((wire as Buffer[])[1]!);
    }
    // One buffer of the result for every answer: encoded once, never copied.
    expect(kept.size).toBe(1);
  });

  it('encodes anything not kept as text, with the end asked for', () => {
    const results = new SerializedResults();
    const message = answer(3, { items: ['ü'] });
    expect(results.encode(message)).toBe(JSON.stringify(message));
    expect(results.encode(message, '\n')).toBe(`${JSON.stringify(message)}\n`);
    expect(wireLength(results.encode(message))).toBe(Buffer.byteLength(JSON.stringify(message)));
  });
});
