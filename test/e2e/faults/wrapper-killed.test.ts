import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually } from '../../support/eventually.js';
import {
  fixtureServer,
  repoRoot,
  startDaemon,
  type RunningDaemon,
} from '../../support/running-daemon.js';
import { callJson } from './fault-support.js';
import { isAlive } from '../../integration/shim/support/processes.js';

const wrapper = join(repoRoot, 'test/fixtures/wrapper-server.mjs');

/** What the fixture's `stats` tool answers, as far as this test reads it. */
interface Stats {
  readonly pid: number;
  readonly parentPid: number;
  readonly toolCalls: number;
}

/**
 * A server started through a launcher that relays its stdout, killed while a process it
 * started lives on holding stderr (found with server-everything behind a tee wrapper):
 * the call in flight fails at once with UPSTREAM_UNAVAILABLE instead of hanging until
 * that process exits, what is left of the launcher's process group is ended, and the
 * next call starts the server again.
 */
describe('a launcher killed while its server lives on', () => {
  let daemon: RunningDaemon;

  beforeAll(async () => {
    daemon = await startDaemon();
    const added = await daemon.api('POST', '/servers', {
      name: 'wrapped',
      transport: 'stdio',
      command: process.execPath,
      args: [wrapper, fixtureServer],
    });
    expect(added.status, JSON.stringify(added.body)).toBe(201);
  });

  afterAll(async () => {
    await daemon?.stop();
  });

  it('fails the call in flight, ends the orphan, and serves the next call', async () => {
    const client = await daemon.client();
    const before = (await callJson(client, 'wrapped__stats')) as Stats;
    const { pid, parentPid } = before;
    const hung = client
      .callTool({ name: 'wrapped__hang', arguments: {} }, undefined, { timeout: 600_000 })
      .catch((error: unknown) => error);
    await eventually(async () => {
      const now = (await callJson(client, 'wrapped__stats')) as Stats;
      expect(now.toolCalls).toBeGreaterThan(before.toolCalls + 1);
    });
    const log = readFileSync(join(daemon.home, 'logs/upstream-wrapped.log'), 'utf8');
    const helper = Number(/helper pid (\d+)/.exec(log)?.[1]);
    expect(isAlive(helper)).toBe(true);
    process.kill(parentPid, 'SIGKILL');
    expect(await hung).toMatchObject({ data: { coffer_code: 'UPSTREAM_UNAVAILABLE' } });
    await eventually(() => expect([isAlive(pid), isAlive(helper)]).toEqual([false, false]));
    const after = (await callJson(client, 'wrapped__stats')) as Stats;
    expect(after.pid).not.toBe(pid);
  });
});
