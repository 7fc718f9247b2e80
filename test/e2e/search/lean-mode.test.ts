import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ShimClient } from '../../integration/shim/support/shim-client.js';
import { eventually } from '../../support/eventually.js';
import { startDaemon, type RunningDaemon } from '../../support/running-daemon.js';
import { upstreamLogCount } from '../../support/upstream-log.js';
import { addFixture, clientAt, rpcError, searchTools } from './search-support.js';
import { toolsOnceListed } from '../../support/listed-tools.js';

const names = (tools: readonly { name: string }[]) => tools.map((tool) => tool.name);
const textOf = (result: unknown) =>
  (result as { content: { text: string }[] }).content[0]?.text ?? '';

interface Stats {
  cancelledCalls: number;
}

interface ActivityRow {
  server: string | null;
  capability_key: string | null;
  action: string;
  client_name: string | null;
  outcome: string;
}

/**
 * Lean mode (issue 9): `/mcp?mode=lean` lists exactly coffer__search_tools and
 * coffer__call_tool; coffer__call_tool runs any enabled tool through the same route as
 * a direct call (progress, cancellation, activity); the daemon setting and the shim's
 * --lean choose it too.
 */
describe('lean mode through the real daemon', () => {
  let daemon: RunningDaemon;
  let lean: Client;

  beforeAll(async () => {
    daemon = await startDaemon();
    await addFixture(daemon, 'fixture');
    lean = await clientAt(daemon, '?mode=lean', 'lean-e2e');
  });

  afterAll(async () => {
    await lean?.close();
    await daemon?.stop();
  });

  it('lists exactly the two built-in tools', async () => {
    const { tools } = await lean.listTools();
    expect(names(tools)).toEqual(['coffer__search_tools', 'coffer__call_tool']);
    expect(tools[0]?.description).toContain('coffer__call_tool');
  });

  it('runs a found tool through coffer__call_tool, with progress, and records it', async () => {
    const [found] = await searchTools(lean, { query: 'progress notifications', limit: 1 });
    expect(found?.name).toBe('fixture__progress');
    const progress: number[] = [];
    const result = await lean.callTool(
      {
        name: 'coffer__call_tool',
        arguments: { name: found!.name, arguments: { count: 4, delay_ms: 20 } },
      },
      undefined,
      { onprogress: (update) => progress.push(update.progress) },
    );
    expect(textOf(result)).toBe('progress done: 4 steps');
    expect(progress).toEqual([1, 2, 3, 4]);
    // The activity log names the tool that ran, as for a direct call.
    await expect
      .poll(async () => {
        const { body } = await daemon.api('GET', '/activity?server=fixture');
        return (body.activity as ActivityRow[]).find((row) => row.capability_key === 'progress');
      })
      .toMatchObject({ action: 'tools/call', client_name: 'lean-e2e', outcome: 'ok' });
  });

  it('relays cancellation of a coffer__call_tool call to the upstream', async () => {
    const call = (name: string, args: Record<string, unknown> = {}, signal?: AbortSignal) =>
      lean.callTool(
        { name: 'coffer__call_tool', arguments: { name, arguments: args } },
        undefined,
        signal === undefined ? {} : { signal },
      );
    await call('fixture__stats');
    const started = () => upstreamLogCount(daemon.home, 'fixture', 'waits for cancellation');
    const startedBefore = started();
    const controller = new AbortController();
    const hanging = call('fixture__hang', {}, controller.signal);
    // Cancelled once the upstream has the call (the fixture logs it), not after a guess.
    await eventually(() => expect(started()).toBe(startedBefore + 1));
    controller.abort('gave up');
    await expect(hanging).rejects.toThrow();
    await expect
      .poll(async () => (JSON.parse(textOf(await call('fixture__stats'))) as Stats).cancelledCalls)
      .toBe(1);
  });

  it('refuses an unknown tool the way a direct call does', async () => {
    const error = await rpcError(
      lean.callTool({ name: 'coffer__call_tool', arguments: { name: 'fixture__nope' } }),
    );
    expect(error.data).toMatchObject({ coffer_code: 'CAPABILITY_NOT_FOUND' });
  });

  it('is the default with COFFER_TOOLS_MODE=lean, and ?mode=full still lists everything', async () => {
    const leanDaemon = await startDaemon({ COFFER_TOOLS_MODE: 'lean' });
    try {
      await addFixture(leanDaemon, 'fixture');
      const byDefault = await leanDaemon.client({ name: 'default' });
      expect(names((await byDefault.listTools()).tools)).toEqual([
        'coffer__search_tools',
        'coffer__call_tool',
      ]);
      const full = await clientAt(leanDaemon, '?mode=full', 'full');
      const listed = await toolsOnceListed(full, ['fixture__echo']);
      expect(listed).toContain('coffer__search_tools');
      await full.close();
    } finally {
      await leanDaemon.stop();
    }
  });

  it('works through `coffer shim --lean`', async () => {
    const shim = ShimClient.spawn(daemon.env, ['--lean']);
    try {
      await shim.initialize({}, 'lean-shim');
      const listed = await shim.request('tools/list');
      expect(names(listed.result.tools as { name: string }[])).toEqual([
        'coffer__search_tools',
        'coffer__call_tool',
      ]);
      const called = await shim.request('tools/call', {
        name: 'coffer__call_tool',
        arguments: { name: 'fixture__echo', arguments: { message: 'through the shim' } },
      });
      expect(JSON.stringify(called.result.content)).toContain('through the shim');
    } finally {
      expect(await shim.close()).toEqual({ code: 0, signal: null });
    }
  });
});
