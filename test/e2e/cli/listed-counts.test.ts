import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addFixture, startDaemon, type RunningDaemon } from '../../support/running-daemon.js';
import { runCoffer } from '../secrets/run-coffer.js';

/**
 * What `coffer mcp list` and `mcp show` say of a server an agent has listed only the tools
 * of (most agents list tools first, many nothing else): its prompts and resources are not
 * known yet, and must not read as 0. The fixture has 1 prompt and 1 resource.
 */
describe('capability counts of a server whose tools alone were listed', () => {
  let daemon: RunningDaemon;

  beforeAll(async () => {
    daemon = await startDaemon();
    await addFixture(daemon, 'fixture');
    const agent = await daemon.client();
    await agent.listTools();
  });

  afterAll(async () => {
    await daemon?.stop();
  });

  it('leaves the kinds no list reached unknown, not 0', async () => {
    const listed = await daemon.api('GET', '/servers/fixture');
    expect(listed.body.server.status.counts).toEqual({ tools: 17 });

    const table = await runCoffer(daemon.env, ['mcp', 'list']);
    expect(table.code).toBe(0);
    const row = table.stdout.split('\n').find((line) => line.includes('fixture'));
    // name, transport, enabled, state, tools, prompts, resources
    const cells = row?.split('│').map((cell) => cell.trim());
    expect(cells?.slice(5, 8)).toEqual(['17', '-', '-']);

    const shown = await runCoffer(daemon.env, ['mcp', 'show', 'fixture']);
    expect(shown.stdout).toMatch(/^capabilities: +17 tools$/m);
  });

  it('counts every kind once all were listed', async () => {
    expect((await runCoffer(daemon.env, ['mcp', 'refresh', 'fixture'])).code).toBe(0);
    const shown = await runCoffer(daemon.env, ['mcp', 'show', 'fixture']);
    expect(shown.stdout).toMatch(
      /^capabilities: +17 tools, 1 prompt, 1 resource, 1 resource template$/m,
    );
  });
});
