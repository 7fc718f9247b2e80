import { spawn } from 'node:child_process';
import type { Command } from 'commander';
import type { CliContext } from '../cli-context.js';

interface LoginCode {
  readonly code: string;
  readonly url: string;
  readonly expires_at: string;
}

/** The platform's "open this URL" program; $BROWSER wins where a user set one. */
export function openerFor(
  platform: NodeJS.Platform,
  env: NodeJS.ProcessEnv,
): { command: string; args: (url: string) => string[] } {
  const browser = env.BROWSER?.trim();
  if (browser !== undefined && browser !== '') return { command: browser, args: (url) => [url] };
  if (platform === 'darwin') return { command: 'open', args: (url) => [url] };
  // `start` is a cmd builtin; its first quoted argument is a window title.
  if (platform === 'win32') return { command: 'cmd', args: (url) => ['/c', 'start', '""', url] };
  return { command: 'xdg-open', args: (url) => [url] };
}

/** Resolves false when the opener cannot be started (not installed, no desktop). */
export function openUrl(url: string, env: NodeJS.ProcessEnv): Promise<boolean> {
  const opener = openerFor(process.platform, env);
  return new Promise((resolve) => {
    try {
      const child = spawn(opener.command, opener.args(url), {
        detached: true,
        stdio: 'ignore',
        env,
      });
      child.once('error', () => resolve(false));
      child.once('spawn', () => {
        child.unref();
        resolve(true);
      });
    } catch {
      resolve(false);
    }
  });
}

/**
 * `coffer ui [--no-open]`: asks the daemon (starting it if needed) for a one-time login
 * link and opens it. The link works once, for two minutes, and signs the browser in
 * with a cookie: the daemon token itself never reaches the browser.
 */
export function registerUiCommand(program: Command, context: CliContext): void {
  program
    .command('ui')
    .description('open the Coffer web UI in your browser (a one-time login link)')
    .option('--no-open', 'print the link instead of opening a browser')
    .action(async (options: { open: boolean }) => {
      const api = await context.api();
      const login = await api.post<LoginCode>('/ui/login-code');
      if (!options.open) {
        context.stdout.write(`${login.url}\n`);
        context.stderr.write('The link works once, within 2 minutes.\n');
        return;
      }
      if (await openUrl(login.url, context.env)) {
        context.stderr.write('Opening the Coffer UI in your browser…\n');
        return;
      }
      context.stderr.write('Could not open a browser; open this link (once, within 2 minutes):\n');
      context.stdout.write(`${login.url}\n`);
    });
}
