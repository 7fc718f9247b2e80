import { describe, expect, it } from 'vitest';
import type { ShimClient } from '../../integration/shim/support/shim-client.js';
import { shimSuite } from './support/shim-suite.js';

/**
 * Oversized results through `coffer shim`, lean mode included (coffer__call_tool): the
 * shim's sessions share the router, so a big result is cut and read back in pages there
 * too. The first shim starts the daemon with a 1,000-token budget.
 */

const message = Array.from({ length: 2_000 }, (_, i) => `line ${i}`).join('\n');
const whole = JSON.stringify({ message });

const { shim } = shimSuite({ fixture: true, env: { COFFER_RESULT_BUDGET_TOKENS: '1000' } });

/** Reads every page of the kept result named in `note` through `client`. */
async function readBack(client: ShimClient, note: string): Promise<string> {
  const uri = /(coffer:\/\/coffer\/results\/[A-Za-z0-9_-]+):/.exec(note)?.[1];
  const pages = Number(/ of (\d+)\./.exec(note)?.[1]);
  expect(uri).toBeDefined();
  let text = '';
  for (let page = 1; page <= pages; page += 1) {
    const read = await client.request('resources/read', { uri: `${uri}/${page}` });
    expect(read.error).toBeUndefined();
    text += read.result.contents[0].text as string;
  }
  return text;
}

describe('oversized results through coffer shim', () => {
  it('cuts a big result and gives every page back', async () => {
    const client = shim();
    await client.initialize();
    const call = await client.request('tools/call', { name: 'fx__echo', arguments: { message } });
    expect(call.error).toBeUndefined();
    const [shown, note] = call.result.content as { text: string }[];
    expect(whole.startsWith(shown!.text)).toBe(true);
    expect(note!.text).toContain('over the 1,000-token limit');
    expect(await readBack(client, note!.text)).toBe(whole);
  });

  it('cuts what coffer__call_tool returns in lean mode', async () => {
    const client = shim(['--lean']);
    await client.initialize();
    const call = await client.request('tools/call', {
      name: 'coffer__call_tool',
      arguments: { name: 'fx__echo', arguments: { message } },
    });
    expect(call.error).toBeUndefined();
    const note = (call.result.content as { text: string }[]).at(-1)!.text;
    expect(await readBack(client, note)).toBe(whole);
  });
});
