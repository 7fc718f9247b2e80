import type { Command } from 'commander';
import { CofferError } from '../../domain/errors.js';
import type { SignInStart, SignInStatus } from '../../domain/ports.js';
import type { ApiClient, CliContext } from '../cli-context.js';
import { checkName } from './mcp-input.js';
import { openUrl } from './ui-command.js';

const POLL_MS = 500;
const DEFAULT_TIMEOUT_S = 300;

interface LoginFlags {
  open: boolean;
  timeout?: string;
}

const loginPath = (name: string): string => `/servers/${encodeURIComponent(name)}/login`;

function timeoutSeconds(text: string): number {
  const value = Number(text);
  if (!Number.isInteger(value) || value <= 0)
    throw new CofferError(
      'INVALID_INPUT',
      `--timeout must be a whole number of seconds, not "${text}"`,
    );
  return value;
}

/** Polls the daemon until the browser came back (or did not in time). */
async function waitForSignIn(api: ApiClient, name: string, timeoutS: number): Promise<void> {
  const deadline = Date.now() + timeoutS * 1000;
  while (Date.now() < deadline) {
    const status = await api.get<SignInStatus>(loginPath(name));
    if (status.state === 'signed-in') return;
    if (status.state === 'failed')
      throw new CofferError(
        'AUTH_REQUIRED',
        status.error?.message ?? `Sign-in to "${name}" failed`,
        {
          hint: `run \`coffer mcp login ${name}\` again`,
        },
      );
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
  }
  throw new CofferError(
    'AUTH_REQUIRED',
    `The sign-in to "${name}" did not finish within ${timeoutS} s`,
    { hint: `run \`coffer mcp login ${name}\` again and approve Coffer in the browser` },
  );
}

/**
 * `coffer mcp login <name>`: the daemon starts an OAuth sign-in and answers the
 * authorization URL; the browser opens it (the URL is always printed too), the server
 * sends the browser back to the daemon, and this command waits until the daemon says
 * the tokens are stored. `coffer mcp logout <name>` revokes and forgets them.
 */
export function registerMcpLogin(mcp: Command, context: CliContext): void {
  mcp
    .command('login')
    .description('sign in to a remote server that uses OAuth (opens your browser)')
    .argument('<name>', 'the server name')
    .option('--no-open', 'only print the sign-in URL; do not open a browser')
    // The default said in the description: as commander's, it would print quoted ("300").
    .option(
      '--timeout <seconds>',
      `how long to wait for the browser (default: ${DEFAULT_TIMEOUT_S})`,
    )
    .action(async (name: string, flags: LoginFlags) => {
      checkName(name);
      const timeoutS = timeoutSeconds(flags.timeout ?? String(DEFAULT_TIMEOUT_S));
      const api = await context.api();
      const started = await api.post<SignInStart>(loginPath(name));
      context.stdout.write(
        `Open this URL to sign in to "${name}":\n${started.authorization_url}\n`,
      );
      if (flags.open && !(await openUrl(started.authorization_url, context.env)))
        context.stderr.write('Could not open a browser; open the URL above yourself.\n');
      context.stderr.write('Waiting for the sign-in to finish (Ctrl-C to stop)…\n');
      await waitForSignIn(api, name, timeoutS);
      context.stdout.write(`Signed in to "${name}".\n`);
    });

  mcp
    .command('logout')
    .description('revoke and forget the OAuth tokens of a remote server')
    .argument('<name>', 'the server name')
    .action(async (name: string) => {
      checkName(name);
      const api = await context.api();
      const result = await api.post<{ revoked: boolean; forgotten: boolean }>(
        `/servers/${encodeURIComponent(name)}/logout`,
      );
      const how = result.revoked
        ? 'the server revoked its tokens'
        : 'the server offers no revocation';
      context.stdout.write(
        result.forgotten
          ? `Signed out of "${name}" (${how}; Coffer forgot them).\n`
          : `"${name}" was not signed in; nothing to forget.\n`,
      );
    });
}
