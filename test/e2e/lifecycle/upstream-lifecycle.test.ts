import { afterEach, describe, expect, it } from 'vitest';
import { spawn, spawnSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { randomUUID } from 'node:crypto';
import { McpError } from '@modelcontextprotocol/sdk/types.js';
import { eventually } from '../../support/eventually.js';
import {
  repoRoot,
  startDaemon,
  type RunningDaemon,
  fixtureServer as fixture,
} from '../../support/running-daemon.js';
import { isAlive } from '../../integration/shim/support/processes.js';

/** Pids of live processes whose command line contains `marker` (Linux /proc). */
function pidsWith(marker: string): number[] {
  return readdirSync('/proc')
    .filter((name) => /^\d+$/.test(name))
    .flatMap((name) => {
      try {
        const cmdline = readFileSync(`/proc/${name}/cmdline`, 'utf8');
        return cmdline.includes(marker) ? [Number(name)] : [];
      } catch {
        return [];
      }
    });
}

describe.runIf(process.platform === 'linux')('upstream processes', () => {
  let daemon: RunningDaemon | undefined;

  afterEach(async () => {
    await daemon?.stop();
    daemon = undefined;
  });

  it('fails a call at once when its upstream dies mid-call; the next call respawns it', async () => {
    daemon = await startDaemon();
    await daemon.api('POST', '/servers', {
      name: 'crashy',
      transport: 'stdio',
      command: process.execPath,
      args: [fixture, '--scenario', 'crash', '--crash-after-calls', '2'],
    });
    const client = await daemon.client();
    await client.callTool({ name: 'crashy__echo', arguments: { n: 1 } });
    const error = await client
      .callTool({ name: 'crashy__echo', arguments: { n: 2 } })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(McpError);
    expect((error as McpError).data).toMatchObject({ coffer_code: 'UPSTREAM_UNAVAILABLE' });
    const again = await client.callTool({ name: 'crashy__echo', arguments: { n: 3 } });
    const [first] = again.content as { text: string }[];
    expect(JSON.parse(first!.text)).toEqual({ n: 3 });
  });

  it('leaves no process of an `sh -c` wrapper behind when the session closes', async () => {
    daemon = await startDaemon();
    const marker = `wrapped-${randomUUID()}`;
    // `; true` keeps sh alive as the parent, so the fixture is a grandchild of Coffer.
    await daemon.api('POST', '/servers', {
      name: 'wrapped',
      transport: 'stdio',
      command: 'sh',
      args: ['-c', `"${process.execPath}" "${fixture}" --name ${marker}; true`],
    });
    const client = await daemon.client();
    await client.callTool({ name: 'wrapped__echo', arguments: {} });
    expect(pidsWith(marker).length).toBeGreaterThanOrEqual(2); // sh and the fixture
    const transport = client.transport as unknown as { terminateSession(): Promise<void> };
    await transport.terminateSession();
    await eventually(() => expect(pidsWith(marker)).toEqual([]));
  });

  it('after a SIGKILLed daemon, the next start ends exactly its recorded upstreams', async () => {
    daemon = await startDaemon();
    const marker = `orphan-${randomUUID()}`;
    // An upstream that outlives its stdin closing, as some real servers do: when the
    // fixture exits, its wrapper goes on sleeping.
    await daemon.api('POST', '/servers', {
      name: 'stubborn',
      transport: 'stdio',
      command: 'sh',
      args: ['-c', `"${process.execPath}" "${fixture}" --name ${marker}; sleep 300`],
    });
    const client = await daemon.client();
    await client.callTool({ name: 'stubborn__echo', arguments: {} });
    expect(pidsWith(marker).length).toBeGreaterThanOrEqual(2); // sh and the fixture
    // A decoy: a process of ours whose pid we plant in the records with a wrong start time.
    const decoy = spawn('sleep', ['300'], { stdio: 'ignore' });
    const home = daemon.home;
    process.kill(daemon.pid, 'SIGKILL');
    await eventually(() => expect(isAlive(daemon!.pid)).toBe(false));
    // The fixture saw its stdin close and left; the wrapper did not.
    await eventually(() => expect(pidsWith(marker)).toHaveLength(1));
    plantDecoy(home, decoy.pid!);
    try {
      const next = await startDaemon({}, home);
      daemon = next;
      await eventually(() => expect(pidsWith(marker)).toEqual([]));
      expect(isAlive(decoy.pid!)).toBe(true);
    } finally {
      decoy.kill('SIGKILL');
    }
  });

  it('after a SIGKILLed daemon, the next start ends what an upstream left in its group when it exited', async () => {
    daemon = await startDaemon();
    const marker = `left-${randomUUID()}`;
    // The server starts a helper and becomes the fixture (exec): when the fixture sees its
    // stdin close and exits, the group's leader is gone and the helper lives on in it.
    const helper = `"${process.execPath}" -e "setTimeout(() => {}, 300000)" ${marker}-helper`;
    const server = `exec "${process.execPath}" "${fixture}" --name ${marker}-server`;
    await daemon.api('POST', '/servers', {
      name: 'launcher',
      transport: 'stdio',
      command: 'sh',
      args: ['-c', `${helper} & ${server}`],
    });
    const client = await daemon.client();
    await client.callTool({ name: 'launcher__echo', arguments: {} });
    expect(pidsWith(`${marker}-helper`)).toHaveLength(1);
    const home = daemon.home;
    process.kill(daemon.pid, 'SIGKILL');
    await eventually(() => expect(isAlive(daemon!.pid)).toBe(false));
    // Exited, though perhaps not reaped: a parent gone, its exit may stay a zombie.
    await eventually(() => expect(pidsWith(`${marker}-server`)).toEqual([]));
    daemon = await startDaemon({}, home);
    await eventually(() => expect(pidsWith(`${marker}-helper`)).toEqual([]));
  });
});

/** Records a live pid with a start time that is not its own: the sweep must spare it. */
function plantDecoy(home: string, pid: number): void {
  const sql = `INSERT INTO upstream_processes (pid, start_time, command_line, server, session_id, recorded_at)
    VALUES (${pid}, '1', 'sleep 300', 'stubborn', NULL, '2026-01-01T00:00:00Z')`;
  const result = spawnSyncSqlite(join(home, 'coffer.db'), sql);
  if (result !== 0) throw new Error('could not plant the decoy record');
}

function spawnSyncSqlite(db: string, sql: string): number {
  // better-sqlite3 from the repo, so the test needs no sqlite3 binary.
  const script = `const D=require('better-sqlite3');const d=new D(process.argv[1]);d.exec(process.argv[2]);d.close();`;
  const { status } = spawnSync(process.execPath, ['-e', script, db, sql], {
    cwd: repoRoot,
    stdio: 'inherit',
  });
  return status ?? 1;
}
