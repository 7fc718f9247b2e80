import { spawn } from 'node:child_process';
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { cofferBin } from '../../support/running-daemon.js';

export interface CofferRun {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
}

/** Runs the built CLI as a user would, with `input` piped to its stdin (then closed). */
export function runCoffer(
  env: NodeJS.ProcessEnv,
  args: readonly string[],
  input?: string,
): Promise<CofferRun> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [cofferBin, ...args], {
      env: { ...env, NO_COLOR: '1' },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const timer = setTimeout(() => child.kill('SIGKILL'), 60_000);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code: code ?? -1, stdout, stderr });
    });
    child.stdin.end(input ?? '');
  });
}

/** What the file keychain (`COFFER_KEYCHAIN=file`) of `home` holds: account → value. */
export function fileSecrets(home: string): Record<string, string> {
  const file = JSON.parse(readFileSync(join(home, 'secrets.json'), 'utf8')) as {
    secrets: Record<string, string>;
  };
  return file.secrets;
}

/** Every regular file under `dir`, recursively (not the shim's socket, which holds nothing). */
export function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    const stat = statSync(path);
    if (stat.isDirectory()) return filesUnder(path);
    return stat.isFile() ? [path] : [];
  });
}
