import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { McpError } from '@modelcontextprotocol/sdk/types.js';
import { eventually } from '../../support/eventually.js';
import { startDaemon, type RunningDaemon } from '../../support/running-daemon.js';
import { callJson, pidsWith, registerFixture } from './fault-support.js';

const MAX_LOG_BYTES = 256 * 1024;
const LOG_FILES = 3;

/**
 * Upstreams that write too much, or the wrong thing, where Coffer reads them:
 * - stderr is drained into logs/upstream-<name>.log, rotated at COFFER_LOG_MAX_BYTES and
 *   kept to COFFER_LOG_FILES files, so a flood costs bounded disk and the session lives on;
 * - a stdout line that is not JSON-RPC (a stray console.log) is skipped and noted in that
 *   log; the replies around it still arrive. What a user expects: the tool keeps working,
 *   and the log says what the server did wrong.
 * - one line past 32 MiB leaves no message boundary to resync on: that upstream process is
 *   ended, its call fails at once with UPSTREAM_UNAVAILABLE, and the next call starts afresh;
 * - an upstream that only ever writes garbage never completes `initialize`: its list fails
 *   cleanly after the list timeout with UPSTREAM_TIMEOUT (the others are served), and no
 *   process of it is left behind.
 */
describe.runIf(process.platform === 'linux')('a noisy upstream', () => {
  let daemon: RunningDaemon;

  beforeAll(async () => {
    daemon = await startDaemon({
      COFFER_LOG_MAX_BYTES: String(MAX_LOG_BYTES),
      COFFER_LOG_FILES: String(LOG_FILES),
      // Long enough for a loaded machine to start the fixture (a node start took 20 s at load
      // average 30 on 2 cores); the babbler waits it out.
      COFFER_LIST_TIMEOUT_MS: '20000',
    });
    await registerFixture(daemon, 'noisy', ['--fault-tools']);
  });

  afterAll(async () => {
    await daemon?.stop();
  });

  function logFiles(server: string): string[] {
    const dir = join(daemon.home, 'logs');
    return readdirSync(dir)
      .filter((name) => name.startsWith(`upstream-${server}.log`))
      .map((name) => join(dir, name));
  }

  it('keeps a stderr flood of 8 MB within the rotation bound, and keeps serving', async () => {
    const client = await daemon.client();
    const flooded = 8 * 1024 * 1024;
    expect(await callJson(client, 'noisy__flood_stderr', { bytes: flooded })).toEqual({
      written: flooded,
    });
    expect(await callJson(client, 'noisy__echo', { still: 'here' })).toEqual({ still: 'here' });
    // The whole flood reached the log (it rotated), yet no file outgrew the bound.
    await eventually(() => expect(logFiles('noisy')).toHaveLength(LOG_FILES));
    for (const file of logFiles('noisy')) {
      expect(statSync(file).size).toBeLessThanOrEqual(MAX_LOG_BYTES);
    }
    const live = readFileSync(join(daemon.home, 'logs/upstream-noisy.log'), 'utf8');
    expect(live).toContain('stderr flood');
    // A second flood from the same session still leaves the bound intact.
    await callJson(client, 'noisy__flood_stderr', { bytes: flooded });
    for (const file of logFiles('noisy')) {
      expect(statSync(file).size).toBeLessThanOrEqual(MAX_LOG_BYTES);
    }
    expect(await callJson(client, 'noisy__stats')).toMatchObject({ cancelledCalls: 0 });
  });

  it('skips stdout lines that are not JSON-RPC, notes them in the log, and keeps serving', async () => {
    const client = await daemon.client();
    await callJson(client, 'noisy__echo', {}); // its own upstream process, spawned
    const before = notes();
    expect(await callJson(client, 'noisy__garbage_stdout', { lines: 30 })).toEqual({ lines: 30 });
    const answers = await Promise.all(
      Array.from({ length: 20 }, (_, n) => callJson(client, 'noisy__echo', { n })),
    );
    expect(answers).toEqual(Array.from({ length: 20 }, (_, n) => ({ n })));
    await eventually(() => expect(notes() - before).toBe(30));
  });

  function notes(): number {
    return allLogs().split('ignored a line on stdout that is not JSON-RPC').length - 1;
  }

  it('survives a 12 MB garbage line; cuts off an upstream whose line passes 32 MiB', async () => {
    const client = await daemon.client();
    // Past the SDK reader's 10 MiB: this used to throw inside a stream handler and end the daemon.
    expect(await callJson(client, 'noisy__oversized_line', { bytes: 12_000_000 })).toEqual({
      bytes: 12_000_000,
    });
    await eventually(() => expect(allLogs()).toContain('(12000000 chars)'));
    // No newline within the bound: the framing is lost, so the process is ended and the call
    // fails at once, not at its timeout.
    const error = await client
      .callTool({ name: 'noisy__oversized_line', arguments: { bytes: 40 * 1024 * 1024 } })
      .catch((e: unknown) => e);
    expect((error as McpError).data).toMatchObject({ coffer_code: 'UPSTREAM_UNAVAILABLE' });
    expect((await fetch(`${daemon.baseUrl}/healthz`)).status).toBe(200);
    await eventually(() => expect(allLogs()).toContain('stdout line longer than 32 MiB'));
    expect(await callJson(client, 'noisy__echo', { after: 'cut off' })).toEqual({
      after: 'cut off',
    });
  });

  function allLogs(): string {
    return logFiles('noisy')
      .map((file) => readFileSync(file, 'utf8'))
      .join('');
  }

  it('fails an upstream that only writes garbage cleanly, serves the others, leaks nothing', async () => {
    // Its upstream is spawned first, so a loaded machine cannot make IT the slow one.
    const client = await daemon.client();
    await callJson(client, 'noisy__echo', {});
    const marker = `babbler-${randomUUID()}`;
    const added = await daemon.api('POST', '/servers', {
      name: 'babbler',
      transport: 'stdio',
      command: 'sh',
      args: ['-c', `while :; do echo "Welcome to ${marker}!"; sleep 0.05; done`],
    });
    expect(added.status).toBe(201);
    const names = (await client.listTools()).tools.map((tool) => tool.name);
    expect(names).toContain('noisy__echo');
    expect(names.some((name) => name.startsWith('babbler__'))).toBe(false);
    const { body } = await daemon.api('GET', '/servers/babbler');
    expect(body.server.status.last_error).toMatchObject({ code: 'UPSTREAM_TIMEOUT' });
    await eventually(() => {
      const log = readFileSync(join(daemon.home, 'logs/upstream-babbler.log'), 'utf8');
      expect(log).toContain(`Welcome to ${marker}!`);
    });
    await (client.transport as unknown as { terminateSession(): Promise<void> }).terminateSession();
    await client.close();
    await eventually(() => expect(pidsWith(marker)).toEqual([]));
  });
});
