import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { isAlive } from '../integration/shim/support/processes.js';
import { repoRoot, type RunningDaemon } from './running-daemon.js';

/**
 * The live pids a Coffer home's upstream process registry holds (for `server`, or all),
 * read from its database by another process (a running daemon keeps it open). An
 * upstream gets a clean environment, so this is how a test finds the ones it caused.
 */
export function upstreamPids(home: string, server?: string): number[] {
  const database = join(home, 'coffer.db');
  if (!existsSync(database)) return [];
  const script =
    "const D=require('better-sqlite3');const d=new D(process.argv[1],{readonly:true});" +
    "const s=process.argv[2];const q='SELECT pid FROM upstream_processes'+(s?' WHERE server = ?':'');" +
    'process.stdout.write(JSON.stringify(s?d.prepare(q).all(s):d.prepare(q).all()));d.close();';
  const { stdout, status } = spawnSync(
    process.execPath,
    ['-e', script, database, ...(server === undefined ? [] : [server])],
    { cwd: repoRoot, encoding: 'utf8' },
  );
  if (status !== 0) throw new Error('could not read the upstream process registry');
  return (JSON.parse(stdout) as { pid: number }[]).map((row) => row.pid).filter(isAlive);
}

/** The live pids the daemon's upstream process registry holds for `server`. */
export function recordedPids(daemon: RunningDaemon, server: string): number[] {
  return upstreamPids(daemon.home, server);
}
