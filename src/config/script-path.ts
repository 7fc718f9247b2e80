import { isAbsolute, resolve } from 'node:path';

/**
 * The script an interpreter is told to run by its first argument (`node build/index.js`,
 * `python3 server.py`). A script that is not there makes the server exit at its first
 * start, which Coffer could only report after an agent's call failed; `coffer doctor`
 * and `coffer mcp add` say it before anything starts.
 *
 * Narrow on purpose, so that it never cries wolf: only interpreters that take a file
 * first, only their first argument, only when it reads as a path (a slash, or a script's
 * extension), and a relative path only where the server's folder is known.
 */
const INTERPRETER = /^(node|nodejs|bun|tsx|ts-node|python[\d.]*|ruby|perl|php|bash|sh|zsh)$/;
const SCRIPT_EXTENSION = /\.(m?js|cjs|m?ts|py|rb|pl|php|sh)$/i;

export function scriptPathOf(
  command: string,
  args: readonly string[],
  cwd: string | undefined,
): string | undefined {
  const program = (command.split(/[\\/]/).pop() ?? '').replace(/\.exe$/i, '').toLowerCase();
  if (!INTERPRETER.test(program)) return undefined;
  const first = args[0];
  if (first === undefined || first === '' || first.startsWith('-')) return undefined;
  if (!/[\\/]/.test(first) && !SCRIPT_EXTENSION.test(first)) return undefined;
  if (isAbsolute(first)) return first;
  return cwd === undefined ? undefined : resolve(cwd, first);
}
