import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ElicitRequestSchema,
  ToolListChangedNotificationSchema,
} from '@modelcontextprotocol/sdk/types.js';
import { eventually } from '../../support/eventually.js';
import {
  addFixture,
  addNodeServer,
  fixtureServer,
  repoRoot,
  startDaemon,
  type RunningDaemon,
} from '../../support/running-daemon.js';
import { recordedPids } from '../../support/upstream-processes.js';
import { expectEchoThroughShim } from './shim-echo.js';

/**
 * A server built with the official SDK v2 that speaks only MCP 2026-07-28
 * (`serveStdio(factory, { legacy: 'reject' })`), behind Coffer, used by 2025 clients:
 * Coffer finds its era, speaks 2026-07-28 to it, and shares one process across sessions.
 */
const modernServer = join(repoRoot, 'test/fixtures/modern-mcp-server.mjs');

describe('a 2026-07-28-only upstream (SDK v2 serveStdio, legacy rejected)', () => {
  let daemon: RunningDaemon;

  beforeAll(async () => {
    daemon = await startDaemon();
    await addNodeServer(daemon, 'modern', [modernServer]);
    await addFixture(daemon, 'legacy');
  });

  afterAll(async () => {
    await daemon?.stop();
  });

  it('lists and calls its tools, prompts and resources for a 2025 client on /mcp', async () => {
    const client = await daemon.client();
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name)).toEqual(
      expect.arrayContaining(['modern__echo', 'modern__ask_name', 'legacy__echo']),
    );
    const result = await client.callTool({ name: 'modern__echo', arguments: { text: 'hi' } });
    expect(result).toEqual({ content: [{ type: 'text', text: 'echo: hi' }] });
    const prompt = await client.getPrompt({ name: 'modern__greeting' });
    expect(prompt.messages[0]?.content).toEqual({ type: 'text', text: 'Say hello' });
    const { resources } = await client.listResources();
    const readme = resources.find((resource) => resource.name === 'readme');
    expect(readme).toBeDefined();
    const read = await client.readResource({ uri: readme!.uri });
    expect(read.contents[0]).toMatchObject({ text: 'modern readme' });
  });

  it('shows the protocol revision each upstream speaks', async () => {
    const client = await daemon.client({ name: 'versions' });
    await client.listTools();
    const modern = await daemon.api('GET', '/servers/modern');
    const legacy = await daemon.api('GET', '/servers/legacy');
    expect(modern.body.server.status.protocol_version).toBe('2026-07-28');
    expect(legacy.body.server.status.protocol_version).toBe('2025-11-25');
  });

  it('shares one upstream process across sessions; a 2025 upstream keeps one per session', async () => {
    const first = await daemon.client({ name: 'first' });
    const second = await daemon.client({ name: 'second' });
    for (const client of [first, second]) {
      const result = await client.callTool({ name: 'modern__echo', arguments: { text: 'x' } });
      expect(result.content).toEqual([{ type: 'text', text: 'echo: x' }]);
      await client.callTool({ name: 'legacy__echo', arguments: { v: 1 } });
    }
    const modern = recordedPids(daemon, 'modern');
    expect(modern).toHaveLength(1);
    expect(recordedPids(daemon, 'legacy').length).toBeGreaterThanOrEqual(2);
  });

  it("invalidates every session's tool list when the upstream's list changes", async () => {
    const watcher = await daemon.client({ name: 'watcher' });
    const changer = await daemon.client({ name: 'changer' });
    await watcher.listTools();
    let changes = 0;
    watcher.setNotificationHandler(ToolListChangedNotificationSchema, () => void (changes += 1));
    await changer.callTool({ name: 'modern__add_tool', arguments: {} });
    await eventually(() => expect(changes).toBeGreaterThan(0));
    const { tools } = await watcher.listTools();
    expect(tools.map((tool) => tool.name)).toContain('modern__extra_1');
  });

  it("asks the calling client an upstream's input-required question and retries with the answer", async () => {
    const asking = await daemon.client({ name: 'asking', capabilities: { elicitation: {} } });
    const questions: unknown[] = [];
    asking.setRequestHandler(ElicitRequestSchema, (request) => {
      questions.push(request.params);
      return { action: 'accept', content: { name: 'Ada' } };
    });
    const result = await asking.callTool({ name: 'modern__ask_name', arguments: {} });
    expect(result.content).toEqual([{ type: 'text', text: 'hello Ada' }]);
    expect(questions).toMatchObject([{ message: 'What is your name?' }]);
  });

  it("declares the calling session's own capabilities on each request", async () => {
    // This client declared no elicitation: the upstream sees that and refuses to ask.
    const mute = await daemon.client({ name: 'mute' });
    await expect(mute.callTool({ name: 'modern__ask_name', arguments: {} })).rejects.toThrow(
      /-32021/,
    );
  });

  it('starts a 2025 server that exits when probed again, and initializes it', async () => {
    const added = await daemon.api('POST', '/servers', {
      name: 'picky',
      transport: 'stdio',
      command: process.execPath,
      args: [join(repoRoot, 'test/fixtures/exits-when-probed.mjs'), fixtureServer],
    });
    expect(added.status).toBe(201);
    const client = await daemon.client({ name: 'picky-client' });
    const result = await client.callTool({ name: 'picky__echo', arguments: { v: 'probed' } });
    expect(JSON.stringify(result.content)).toContain('probed');
    const shown = await daemon.api('GET', '/servers/picky');
    expect(shown.body.server.status.protocol_version).toBe('2025-11-25');
  });

  it('lists and calls through the shim for a 2025 stdio client', async () => {
    await expectEchoThroughShim(daemon.env, 'modern');
  });
});
