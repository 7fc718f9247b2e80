import { describe, expect, it } from 'vitest';
import { parseTime } from '../../../bench/fan-out.js';

describe('parseTime (the warm listing’s JSON.parse floor)', () => {
  it('times the parse of a list of tools', () => {
    const tools = Array.from({ length: 200 }, (_, i) => ({ name: `t${i}`, inputSchema: {} }));
    const answer = Buffer.from(JSON.stringify({ jsonrpc: '2.0', id: 1, result: { tools } }));
    const took = parseTime(answer);
    expect(took).toBeGreaterThan(0);
    expect(Number.isFinite(took)).toBe(true);
  });

  it('refuses an answer that is not a list of tools, naming what came', () => {
    const error = Buffer.from('{"jsonrpc":"2.0","id":1,"error":{"code":-32601}}');
    expect(() => parseTime(error)).toThrow(/answered without tools: .*-32601/);
    expect(() => parseTime(Buffer.from('not json'))).toThrow(SyntaxError);
  });
});
