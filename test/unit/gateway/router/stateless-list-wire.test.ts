import { describe, expect, it } from 'vitest';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { wireString } from '../../../../src/gateway/serialized-results.js';
import type { Script } from './fake-upstream.js';
import { Channel, statelessServices, type Message } from './stateless-channel.js';

const start = statelessServices();

/** An upstream whose tool list grows by one tool at each list request. */
function growingUpstream(): Script {
  let lists = 0;
  return {
    'tools/list': () => {
      lists += 1;
      return { tools: Array.from({ length: lists }, (_, i) => ({ name: `t${i}`, note: 'é✓' })) };
    },
  };
}

const tools = (answer: Message): string[] =>
  ((answer['result'] as { tools: { name: string }[] }).tools ?? []).map((tool) => tool.name);

/**
 * A warm 2026-07-28 list is the same result while the list is unchanged, written from
 * the service's kept bytes (no JSON.stringify of the whole list per request), and a new
 * one once the list changed.
 */
describe('a warm 2026-07-28 list', () => {
  it('is one result for every request and channel, encoded from kept bytes', async () => {
    const { service } = start({ fx: growingUpstream() });
    const [a, b] = [new Channel(service), new Channel(service)];
    a.request(1, 'tools/list');
    const first = await a.answer(1);
    b.request(2, 'tools/list');
    const second = await b.answer(2);
    expect(second['result']).toBe(first['result']);
    expect(second['result']).toMatchObject({ resultType: 'complete', ttlMs: 0 });
    const wire = service.serialized.encode(second, '\n');
    expect(typeof wire).not.toBe('string');
    expect(wireString(wire)).toBe(`${JSON.stringify(second)}\n`);
  });

  it('is a new result once the list changed', async () => {
    const { service } = start({ fx: growingUpstream() });
    const channel = new Channel(service);
    channel.request(1, 'tools/list');
    const before = await channel.answer(1);
    expect(tools(before)).toEqual(['coffer__search_tools', 'fx__t0']);
    service.capabilitiesChanged('fx');
    channel.request(2, 'tools/list');
    const after = await channel.answer(2);
    expect(after['result']).not.toBe(before['result']);
    expect(tools(after)).toEqual(['coffer__search_tools', 'fx__t0', 'fx__t1']);
    expect(wireString(service.serialized.encode(after as JSONRPCMessage))).toBe(
      JSON.stringify(after),
    );
  });
});
