import { describe, expect, it } from 'vitest';
import { Cancellation } from '../../../src/domain/cancel-signal.js';
import type { JsonObject } from '../../../src/domain/ports.js';
import { BuiltinCalls } from '../../../src/gateway/builtin-calls.js';
import type { RoutedRequestOptions } from '../../../src/gateway/upstream-forward.js';
import type { ServerItems } from '../../../src/gateway/session-catalog.js';

const echo = {
  name: 'fx__echo',
  description: 'Returns its arguments',
  inputSchema: { type: 'object' },
};
const clock = {
  name: 'fx__time',
  description: 'Tells the current time',
  inputSchema: { type: 'object' },
};

/** A session catalog whose lists the test changes, as a preference change would. */
function fakeSession(initial: JsonObject[]) {
  let lists: ServerItems[] = [{ server: 'fx', source: {}, items: initial }];
  const routed: { params: JsonObject; options: RoutedRequestOptions }[] = [];
  const builtins = new BuiltinCalls({
    catalog: { listByServer: () => Promise.resolve(lists) },
    callTool: (params, options) => {
      routed.push({ params, options });
      return Promise.resolve({ content: [{ type: 'text', text: 'routed' }] });
    },
  });
  const relist = (items: JsonObject[]) => (lists = [{ server: 'fx', source: {}, items }]);
  return { builtins, routed, relist };
}

const search = (builtins: BuiltinCalls, args: unknown) =>
  builtins.call({ name: 'coffer__search_tools', arguments: args }, {});

const foundNames = (result: JsonObject) =>
  ((result['structuredContent'] as { tools: { name: string }[] }).tools ?? []).map((t) => t.name);

describe('built-in tool calls', () => {
  it('recognises only calls of the built-in tools', () => {
    const { builtins } = fakeSession([echo]);
    expect(builtins.handles('tools/call', { name: 'coffer__search_tools' })).toBe(true);
    expect(builtins.handles('tools/call', { name: 'coffer__call_tool' })).toBe(true);
    expect(builtins.handles('tools/call', { name: 'fx__echo' })).toBe(false);
    expect(builtins.handles('prompts/get', { name: 'coffer__search_tools' })).toBe(false);
  });

  it('answers a search as JSON text and structured content', async () => {
    const { builtins } = fakeSession([echo, clock]);
    const result = await search(builtins, { query: 'what time is it' });
    expect(foundNames(result)[0]).toBe('fx__time');
    const text = (result['content'] as { text: string }[])[0]!.text;
    expect(JSON.parse(text)).toEqual(result['structuredContent']);
    expect((result['structuredContent'] as { tools: JsonObject[] }).tools[0]).toEqual({
      name: 'fx__time',
      server: 'fx',
      description: 'Tells the current time',
      inputSchema: { type: 'object' },
    });
  });

  it('follows the live list: a tool that left it is no longer found', async () => {
    const { builtins, relist } = fakeSession([echo, clock]);
    expect(foundNames(await search(builtins, { query: 'time' }))).toContain('fx__time');
    relist([echo]);
    expect(foundNames(await search(builtins, { query: 'time' }))).toEqual([]);
  });

  it('turns bad search arguments into a tool error the model can read', async () => {
    const { builtins } = fakeSession([echo]);
    for (const args of [
      undefined,
      {},
      { query: '  ' },
      { query: 'x', limit: 0 },
      { query: 'x', limit: 51 },
    ]) {
      const result = await search(builtins, args);
      expect(result['isError'], JSON.stringify(args)).toBe(true);
    }
  });

  it('routes coffer__call_tool through the session router with _meta and options', async () => {
    const { builtins, routed } = fakeSession([echo]);
    const signal = new Cancellation();
    const onProgress = () => undefined;
    const options = { signal, requestId: 7, onProgress };
    const result = await builtins.call(
      {
        name: 'coffer__call_tool',
        arguments: { name: 'fx__echo', arguments: { message: 'hi' } },
        _meta: { progressToken: 'p-1' },
      },
      options,
    );
    expect(result).toEqual({ content: [{ type: 'text', text: 'routed' }] });
    expect(routed).toEqual([
      {
        params: { name: 'fx__echo', arguments: { message: 'hi' }, _meta: { progressToken: 'p-1' } },
        options,
      },
    ]);
  });

  it('refuses to call itself and checks its own arguments', async () => {
    const { builtins, routed } = fakeSession([echo]);
    const call = (args: unknown) =>
      builtins.call({ name: 'coffer__call_tool', arguments: args }, {});
    for (const args of [
      {},
      { name: '' },
      { name: 'fx__echo', arguments: [1] },
      { name: 'coffer__call_tool' },
    ])
      expect((await call(args))['isError'], JSON.stringify(args)).toBe(true);
    expect(routed).toEqual([]);
    // Searching through call_tool works like searching directly.
    expect(
      foundNames(await call({ name: 'coffer__search_tools', arguments: { query: 'echo' } })),
    ).toEqual(['fx__echo']);
  });
});
