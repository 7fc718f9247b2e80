import { spawn } from 'node:child_process';
import { cofferBin } from '../../support/running-daemon.js';

export interface LoginRun {
  /** The authorization URL the command printed. */
  readonly url: string;
  /** Resolves when the command exits. */
  readonly done: Promise<{ code: number; stdout: string; stderr: string }>;
}

/** Starts `coffer mcp login <name> --no-open` and resolves once it printed the URL. */
export function startLogin(env: NodeJS.ProcessEnv, name: string): Promise<LoginRun> {
  const child = spawn(process.execPath, [cofferBin, 'mcp', 'login', name, '--no-open'], {
    env: { ...env, NO_COLOR: '1' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  const timer = setTimeout(() => child.kill('SIGKILL'), 60_000);
  const done = new Promise<{ code: number; stdout: string; stderr: string }>((resolve) => {
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code: code ?? -1, stdout, stderr });
    });
  });
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  return new Promise((resolve, reject) => {
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
      const url = /^(https?:\/\/\S+)$/m.exec(stdout)?.[1];
      if (url !== undefined) resolve({ url, done });
    });
    void done.then((result) =>
      reject(new Error(`login exited before printing a URL: ${result.stderr}`)),
    );
  });
}

/**
 * The browser's part: open the authorization URL (the test server approves at once and
 * redirects), then follow the redirect to the daemon's /oauth/callback.
 */
export async function approveInBrowser(
  authorizationUrl: string,
): Promise<{ callbackUrl: string; status: number; page: string }> {
  const approval = await fetch(authorizationUrl, { redirect: 'manual' });
  const callbackUrl = approval.headers.get('location');
  if (approval.status !== 302 || callbackUrl === null)
    throw new Error(
      `the authorization server answered ${approval.status}: ${await approval.text()}`,
    );
  const callback = await fetch(callbackUrl, { redirect: 'manual' });
  return { callbackUrl, status: callback.status, page: await callback.text() };
}

/** Signs `name` in as a user would, with the browser step done by the test. */
export async function signIn(env: NodeJS.ProcessEnv, name: string) {
  const login = await startLogin(env, name);
  const browser = await approveInBrowser(login.url);
  return { login, browser, result: await login.done };
}
