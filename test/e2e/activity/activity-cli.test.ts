import { spawn } from 'node:child_process';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { CallToolResultSchema } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  cofferBin,
  startDaemon,
  type RunningDaemon,
  fixtureServer as FIXTURE,
} from '../../support/running-daemon.js';
import { runCoffer } from '../secrets/run-coffer.js';

const cofferVersion = (
  JSON.parse(readFileSync(new URL('../../../package.json', import.meta.url), 'utf8')) as {
    version: string;
  }
).version;

interface Row {
  id: number;
  trace_id: string | null;
  client_name: string | null;
  client_version: string | null;
  server: string | null;
  capability_key: string | null;
  action: string;
  duration_ms: number | null;
  outcome: string;
  error_code: string | null;
}

async function activityJson(daemon: RunningDaemon, ...args: string[]): Promise<Row[]> {
  const run = await runCoffer(daemon.env, ['activity', '--json', ...args]);
  expect(run.code, run.stderr).toBe(0);
  return (JSON.parse(run.stdout) as { activity: Row[] }).activity;
}

function call(client: Client, name: string, args: Record<string, unknown> = {}) {
  return client.request(
    { method: 'tools/call', params: { name, arguments: args } },
    CallToolResultSchema,
  );
}

describe('activity, trace ids and logs, through the real daemon and CLI', () => {
  let daemon: RunningDaemon;
  let client: Client;

  beforeAll(async () => {
    daemon = await startDaemon({ COFFER_KEYCHAIN: 'file' });
    const added = await daemon.api('POST', '/servers', {
      name: 'fx',
      transport: 'stdio',
      command: process.execPath,
      args: [FIXTURE],
    });
    expect(added.status).toBe(201);
    client = await daemon.client({ name: 'activity-e2e' });
  });
  afterAll(() => daemon.stop());

  it('a tool call appears in `coffer activity --json` with its duration and client', async () => {
    await call(client, 'fx__echo', { message: 'hi' });
    await expect
      .poll(async () => (await activityJson(daemon, '--server', 'fx')).length)
      .toBeGreaterThan(0);
    const [row] = await activityJson(daemon, '--server', 'fx', '--since', '10m');
    expect(row).toMatchObject({
      action: 'tools/call',
      server: 'fx',
      capability_key: 'echo',
      client_name: 'activity-e2e',
      client_version: '1.0.0',
      outcome: 'ok',
      error_code: null,
    });
    expect(typeof row?.duration_ms).toBe('number');
    expect(row?.duration_ms).toBeGreaterThanOrEqual(0);
  });

  it('a refused call is recorded with its error code, and the server and tool it was meant for', async () => {
    const disabled = await runCoffer(daemon.env, ['mcp', 'disable', 'fx', '--tool', 'echo']);
    expect(disabled.code, disabled.stderr).toBe(0);
    await expect(call(client, 'fx__echo')).rejects.toThrow(/disabled/);
    await expect(call(client, 'fx__missing')).rejects.toThrow(/Unknown tool/);
    await expect
      .poll(async () =>
        (await activityJson(daemon, '--outcome', 'error')).map((row) => [
          row.error_code,
          row.server,
          row.capability_key,
        ]),
      )
      .toEqual([
        ['CAPABILITY_NOT_FOUND', 'fx', 'missing'],
        ['TOOL_DISABLED', 'fx', 'echo'],
      ]);
    const admin = await activityJson(daemon, '--limit', '1000');
    const toggle = admin.find(
      (row) => row.action === 'capability.disable' && row.capability_key === 'tool:echo',
    );
    // The change names who made it: the CLI, with its version, as an agent's call does.
    expect(toggle).toMatchObject({ client_name: 'coffer-cli', client_version: cofferVersion });
  });

  it('a change made in a browser is from "web browser", as the Activity page says', async () => {
    const browser =
      'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) HeadlessChrome/150.0.0.0 Safari/537.36';
    const disabled = await fetch(`${daemon.baseUrl}/api/v1/servers/fx/capabilities`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${daemon.token}`,
        'content-type': 'application/json',
        'user-agent': browser,
      },
      body: JSON.stringify({ type: 'tool', keys: ['slow_echo'], enabled: false }),
    });
    expect(disabled.status, await disabled.text()).toBe(200);
    const run = await runCoffer(daemon.env, ['activity', '--server', 'fx']);
    const line = run.stdout.split('\n').find((each) => each.includes('tool:slow_echo'));
    expect(line).toMatch(/^\S+ \S+ {2}web browser +capability\.disable /);
    // The JSON keeps what the browser sent.
    const rows = await activityJson(daemon, '--server', 'fx');
    expect(rows.find((row) => row.capability_key === 'tool:slow_echo')?.client_name).toBe(browser);
  });

  it("one trace id: in the activity row, in coffer.log, and in the upstream's _meta.traceparent", async () => {
    const result = await call(client, 'fx__meta');
    const received = JSON.parse((result.content[0] as { text: string }).text) as {
      traceparent?: string;
    };
    const match = /^00-([0-9a-f]{32})-[0-9a-f]{16}-01$/.exec(received.traceparent ?? '');
    expect(match, received.traceparent).not.toBeNull();
    const traceId = match?.[1] ?? '';

    await expect
      .poll(
        async () =>
          (await activityJson(daemon, '--server', 'fx')).find(
            (row) => row.capability_key === 'meta',
          )?.trace_id,
      )
      .toBe(traceId);
    const log = join(daemon.home, 'logs', 'coffer.log');
    await expect.poll(() => readFileSync(log, 'utf8').includes(traceId)).toBe(true);
    const line = readFileSync(log, 'utf8')
      .split('\n')
      .find((text) => text.includes(traceId));
    expect(JSON.parse(line ?? '{}')).toMatchObject({ traceId, msg: 'tools/call fx meta: ok' });

    const logs = await runCoffer(daemon.env, ['logs', '-n', '1000']);
    expect(logs.code).toBe(0);
    expect(logs.stdout).toMatch(new RegExp(`INFO tools/call fx meta: ok .*traceId=${traceId}`));
  });

  it("continues the caller's traceparent: the upstream and the activity row carry its trace id", async () => {
    const traceId = '4bf92f3577b34da6a3ce929d0e0e4736';
    const traced = await daemon.client({
      name: 'traced',
      headers: { traceparent: `00-${traceId}-00f067aa0ba902b7-01` },
    });
    const result = await call(traced, 'fx__meta');
    const received = JSON.parse((result.content[0] as { text: string }).text) as {
      traceparent?: string;
    };
    // Same trace, a span of Coffer's own: the upstream sees Coffer as the parent.
    expect(received.traceparent).toMatch(new RegExp(`^00-${traceId}-[0-9a-f]{16}-01$`));
    expect(received.traceparent).not.toContain('00f067aa0ba902b7');
    await expect
      .poll(async () =>
        (await activityJson(daemon, '--server', 'fx'))
          .filter((row) => row.client_name === 'traced')
          .map((row) => row.trace_id),
      )
      .toEqual([traceId]);
  });

  it('`coffer logs --upstream` shows what the upstream wrote to stderr', async () => {
    const run = await runCoffer(daemon.env, ['logs', '--upstream', 'fx']);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toMatch(/ready on stdio/);
    const missing = await runCoffer(daemon.env, ['logs', '--upstream', 'nothere']);
    expect(missing.code).toBe(3);
    expect(missing.stderr).toMatch(/No log yet/);
  });

  it('--help says which order --json lists in: newest first, unlike the lines', async () => {
    const help = await runCoffer(daemon.env, ['activity', '--help']);
    expect(help.stdout.replace(/\s+/g, ' ')).toContain(
      '--json print JSON, newest first as the REST API answers (with --follow: one JSON object per line, oldest first)',
    );
    const rows = await activityJson(daemon, '--server', 'fx');
    const ids = rows.map((row) => row.id);
    expect(ids).toEqual([...ids].sort((a, b) => b - a));
  });

  it('a mistyped server name of `logs --upstream` and `activity --server` says which was meant', async () => {
    const logs = await runCoffer(daemon.env, ['logs', '--upstream', 'fz']);
    expect(logs.code).toBe(3);
    expect(logs.stderr).toMatch(
      /^coffer: No log yet at \S+upstream-fz\.log \(did you mean "fx"\? Otherwise it is written once a server named "fz" has been started/,
    );
    const activity = await runCoffer(daemon.env, ['activity', '--server', 'fz']);
    expect(activity.code, activity.stderr).toBe(0);
    expect(activity.stdout).toMatch(
      /^No activity recorded \(for these filters\)\. No server named "fz" \(did you mean "fx"\?/,
    );
    // A server that exists and has no rows yet is no typo.
    expect(
      (await daemon.api('POST', '/servers', { name: 'quiet', transport: 'stdio', command: 'true' }))
        .status,
    ).toBe(201);
    const quiet = await runCoffer(daemon.env, [
      'activity',
      '--server',
      'quiet',
      '--since',
      '1m',
      '--outcome',
      'error',
    ]);
    expect(quiet.stdout).toBe('No activity recorded (for these filters).\n');
  });

  it('CLI errors show the trace id the daemon answered', async () => {
    const run = await runCoffer(daemon.env, ['mcp', 'show', 'nope']);
    expect(run.code).toBe(3);
    expect(run.stderr).toMatch(/^coffer: No server named "nope".*\[trace [0-9a-f]{32}\]\n$/);
  });

  it('`coffer activity --follow --json` prints entries as they are recorded', async () => {
    const child = spawn(
      process.execPath,
      [cofferBin, 'activity', '--follow', '--json', '--server', 'fx'],
      {
        env: daemon.env,
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    let out = '';
    child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
    try {
      await expect.poll(() => out.includes('"capability_key":"meta"')).toBe(true);
      await call(client, 'fx__env', { name: 'PATH' });
      await expect.poll(() => out.includes('"capability_key":"env"')).toBe(true);
      for (const line of out.trim().split('\n'))
        expect(() => JSON.parse(line) as unknown).not.toThrow();
    } finally {
      child.kill('SIGTERM');
    }
  });
});

describe('retention and log rotation, configured by environment', () => {
  let daemon: RunningDaemon;
  beforeAll(async () => {
    daemon = await startDaemon({
      COFFER_KEYCHAIN: 'file',
      COFFER_ACTIVITY_MAX_ROWS: '3',
      COFFER_ACTIVITY_PRUNE_INTERVAL_MS: '200',
      COFFER_LOG_MAX_BYTES: '4096',
      COFFER_LOG_FILES: '2',
    });
  });
  afterAll(() => daemon.stop());

  it('keeps at most COFFER_ACTIVITY_MAX_ROWS rows and rotates coffer.log past its size', async () => {
    for (let i = 0; i < 12; i++) {
      await daemon.api('POST', '/servers', { name: `s${i}`, transport: 'stdio', command: 'true' });
    }
    // Batches and prunes interleave: wait for the state after the last of both.
    const servers = async () =>
      ((await daemon.api('GET', '/activity')).body.activity as Row[]).map((row) => row.server);
    await expect.poll(servers).toEqual(['s11', 's10', 's9']);

    const log = join(daemon.home, 'logs', 'coffer.log');
    await expect.poll(() => existsSync(`${log}.1`)).toBe(true);
    expect(existsSync(`${log}.2`)).toBe(false);
    for (const file of [log, `${log}.1`]) {
      expect(statSync(file).size).toBeLessThanOrEqual(4096);
      expect(statSync(file).mode & 0o777).toBe(0o600);
    }
  });
});
