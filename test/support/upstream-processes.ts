import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { isAlive } from '../integration/shim/support/processes.js';
import { repoRoot, type RunningDaemon } from './running-daemon.js';

/**
 * The live pids the daemon's upstream process registry holds for `server`, read from
 * its database by another process (the daemon keeps it open).
 */
export function recordedPids(daemon: RunningDaemon, server: string): number[] {
  const script =
    "const D=require('better-sqlite3');const d=new D(process.argv[1],{readonly:true});" +
    "process.stdout.write(JSON.stringify(d.prepare('SELECT pid FROM upstream_processes WHERE server = ?').all(process.argv[2])));d.close();";
  const { stdout, status } = spawnSync(
    process.execPath,
    ['-e', script, join(daemon.home, 'coffer.db'), server],
    { cwd: repoRoot, encoding: 'utf8' },
  );
  if (status !== 0) throw new Error('could not read the upstream process registry');
  return (JSON.parse(stdout) as { pid: number }[]).map((row) => row.pid).filter(isAlive);
}
