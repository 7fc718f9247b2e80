import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { stopProcess, waitForExit, waitForPort } from '../../support/fixture-process.js';
import { repoRoot } from '../../support/running-daemon.js';

const fixture = join(repoRoot, 'test/fixtures/modern-http-server.mjs');

/**
 * Starts the SDK v2 Streamable HTTP fixture (2026-07-28 only) on a free loopback port;
 * `log()` is what it wrote on stderr (`POST <Mcp-Method>` per request).
 */
export async function startModernHttp() {
  const child = spawn(process.execPath, [fixture], { stdio: ['ignore', 'ignore', 'pipe'] });
  let log = '';
  child.stderr.setEncoding('utf8');
  child.stderr.on('data', (chunk: string) => (log += chunk));
  const exited = waitForExit(child);
  const port = await waitForPort(child, () => log, 60_000);
  return {
    url: `http://127.0.0.1:${port}/mcp`,
    log: () => log,
    close: () => stopProcess(child, exited, () => log),
  };
}
