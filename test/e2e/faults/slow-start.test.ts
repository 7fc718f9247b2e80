import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { McpError, ToolListChangedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { eventually } from '../../support/eventually.js';
import { startDaemon, type RunningDaemon } from '../../support/running-daemon.js';
import { callJson, pidsWith, registerFixture } from './fault-support.js';

/**
 * Starting an upstream is bounded by COFFER_CONNECT_TIMEOUT_MS, not by the per-call
 * COFFER_REQUEST_TIMEOUT_MS: a server slower to start than one call may take (a first `npx`
 * download, a loaded machine) still serves, and one that never finishes its handshake fails
 * with UPSTREAM_TIMEOUT naming the setting, and its process is ended.
 */
describe('an upstream slow to start', () => {
  let daemon: RunningDaemon;

  beforeAll(async () => {
    // The start (init delay) outlasts one call's timeout; the margins around both are for a
    // busy machine, where the fixture's node start and one echo each take their time. The list
    // deadline comes well after the start's, so the frozen start is what fails its call.
    daemon = await startDaemon({
      COFFER_REQUEST_TIMEOUT_MS: '2500',
      COFFER_CONNECT_TIMEOUT_MS: '20000',
      COFFER_LIST_TIMEOUT_MS: '40000',
    });
    await registerFixture(daemon, 'sluggish', ['--init-delay-ms', '3000']);
    await registerFixture(daemon, 'frozen', [
      '--init-delay-ms',
      '600000',
      '--name',
      'frozen-start',
    ]);
  });

  afterAll(async () => {
    await daemon?.stop();
  });

  it('serves a server whose start takes longer than the call timeout', async () => {
    const client = await daemon.client();
    expect(await callJson(client, 'sluggish__echo', { started: true })).toEqual({
      started: true,
    });
  });

  it('fails a server that never finishes starting with UPSTREAM_TIMEOUT, and ends it', async () => {
    const client = await daemon.client();
    const error = await client
      .callTool({ name: 'frozen__echo', arguments: {} }, undefined, { timeout: 60_000 })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(McpError);
    expect((error as McpError).data).toMatchObject({ coffer_code: 'UPSTREAM_TIMEOUT' });
    expect((error as McpError).message).toMatch(/did not finish starting/);
    expect((error as McpError).message).toMatch(/COFFER_CONNECT_TIMEOUT_MS/);
    await eventually(() => expect(pidsWith('frozen-start')).toEqual([]));
  });
});

/**
 * A server still starting when the agent first lists (past COFFER_LIST_TIMEOUT_MS) is left
 * out of that list, so the others are not held up; once its list arrives, the session
 * says `notifications/tools/list_changed`, so an agent that lists only when told sees it.
 */
describe('a list that arrives after the list deadline', () => {
  let daemon: RunningDaemon;

  beforeAll(async () => {
    // The start outlasts the list deadline by far: a busy machine may be seconds late with the
    // first list, and the server must still be starting when that list is answered.
    daemon = await startDaemon({ COFFER_LIST_TIMEOUT_MS: '2000' });
    await registerFixture(daemon, 'late', ['--init-delay-ms', '12000']);
  });

  afterAll(async () => {
    await daemon?.stop();
  });

  it('is announced with list_changed, and the next list has it', async () => {
    const client = await daemon.client();
    let changed = 0;
    client.setNotificationHandler(ToolListChangedNotificationSchema, () => {
      changed += 1;
    });
    // Answered at the deadline, long before the server has finished starting.
    const first = (await client.listTools()).tools.map((tool) => tool.name);
    expect(first).not.toContain('late__echo');
    expect(changed).toBe(0);
    await eventually(() => expect(changed).toBeGreaterThan(0), 60_000);
    await eventually(async () => {
      const names = (await client.listTools()).tools.map((tool) => tool.name);
      expect(names).toContain('late__echo');
    });
    expect(await callJson(client, 'late__echo', { arrived: true })).toEqual({ arrived: true });
  });
});
