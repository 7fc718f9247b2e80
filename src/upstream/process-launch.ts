import { findCommand, type CommandLookupOptions } from '../config/command-lookup.js';

/**
 * What to spawn for a server's command. Everywhere but Windows: the command itself.
 * On Windows, `npx`, `npm` and most tools installed with npm are `.cmd` batch shims,
 * which CreateProcess cannot run: they go through `cmd.exe /d /s /c "…"` with every
 * part quoted for cmd, as cross-spawn does (a bare `spawn('npx')` fails with ENOENT).
 */
export interface Launch {
  readonly command: string;
  readonly args: readonly string[];
  /** Windows: the arguments are already quoted for cmd.exe; Node must not quote again. */
  readonly windowsVerbatimArguments: boolean;
}

export interface LaunchOptions extends CommandLookupOptions {
  /** %ComSpec%: where cmd.exe is. */
  readonly comSpec?: string | undefined;
}

/** cmd.exe's special characters: each gets a caret so it is taken literally. */
const CMD_META = /([()\][%!^"`<>&|;, *?])/g;
/** npm's generated shims pass their arguments through cmd a second time. */
const NPM_SHIM = /node_modules[\\/]\.bin[\\/][^\\/]+\.cmd$/i;

export function launchFor(
  command: string,
  args: readonly string[],
  options: LaunchOptions,
): Launch {
  const direct = { command, args, windowsVerbatimArguments: false };
  if (options.platform !== 'win32') return direct;
  const resolved = findCommand(command, options);
  // Not found: spawn it as is, so the error says "command not found: <name>".
  if (resolved === undefined || !/\.(cmd|bat)$/i.test(resolved)) return direct;
  const twice = NPM_SHIM.test(resolved);
  const line = [escapeCommand(resolved), ...args.map((arg) => escapeArgument(arg, twice))].join(
    ' ',
  );
  return {
    command: options.comSpec ?? 'cmd.exe',
    args: ['/d', '/s', '/c', `"${line}"`],
    windowsVerbatimArguments: true,
  };
}

function escapeCommand(command: string): string {
  return command.replace(CMD_META, '^$1');
}

/**
 * Quotes one argument for the program's own parser (backslashes before a quote are
 * doubled, quotes escaped), then escapes cmd's specials so cmd passes it through intact.
 */
export function escapeArgument(arg: string, twice = false): string {
  let quoted = arg.replace(/(\\*)"/g, '$1$1\\"').replace(/(\\*)$/, '$1$1');
  quoted = `"${quoted}"`.replace(CMD_META, '^$1');
  return twice ? quoted.replace(CMD_META, '^$1') : quoted;
}
