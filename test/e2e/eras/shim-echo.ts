import { expect } from 'vitest';
import { ShimClient } from '../../integration/shim/support/shim-client.js';

/**
 * A 2025 stdio client (`coffer shim`) lists `<server>__echo` and calls it: what both
 * modern-upstream tests check for their 2026-07-28 server, stdio and HTTP alike.
 */
export async function expectEchoThroughShim(env: NodeJS.ProcessEnv, server: string): Promise<void> {
  const shim = ShimClient.spawn(env);
  try {
    await shim.initialize();
    const list = await shim.request('tools/list', {});
    const names = (list['result'].tools as { name: string }[]).map((tool) => tool.name);
    expect(names).toContain(`${server}__echo`);
    const call = await shim.request('tools/call', {
      name: `${server}__echo`,
      arguments: { text: 'shim' },
    });
    expect(call['result']).toEqual({ content: [{ type: 'text', text: 'echo: shim' }] });
  } finally {
    expect(await shim.close()).toEqual({ code: 0, signal: null });
  }
}
