import { resolve } from 'node:path';
import type { z } from 'zod';
import { anchorLaunch, type LaunchFolder } from '../../agents/launch-folder.js';
import { urlCredentials } from '../../domain/credential-shapes.js';
import { CofferError } from '../../domain/errors.js';
import { assertServerName } from '../../domain/naming.js';
import {
  serverDefinitionSchema,
  type ServerDefinition,
  type ServerDefinitionInput,
} from '../../domain/server-definition.js';

/**
 * Turns `coffer mcp add` flags into a server definition, checked here with the same zod
 * schema the daemon uses: bad input fails fast, on one line, and never starts a daemon.
 */

export interface AddOptions {
  readonly env: readonly string[];
  readonly header: readonly string[];
  readonly cwd?: string;
  readonly url?: string;
  readonly transport?: string;
  /** `--shared`: one upstream connection for every agent session. */
  readonly shared?: boolean;
  /** The folder the command was typed in: its relative paths are that folder's. */
  readonly folder?: LaunchFolder;
}

/** What `coffer mcp add` sends, and what it tells the user beside it. */
export interface AddPlan {
  readonly definition: ServerDefinition;
  readonly notes: readonly string[];
}

const ADD_USAGE =
  'a local server: `coffer mcp add <name> -- <command> [args…]`; a remote one: `coffer mcp add <name> --url <url>`';

function invalid(message: string, hint: string = ADD_USAGE): CofferError {
  return new CofferError('INVALID_INPUT', message, { hint });
}

/** Commander's collector for repeatable flags. */
export function collect(value: string, previous: readonly string[]): string[] {
  return [...previous, value];
}

/** Exits with a usage error before a daemon is started for a name that cannot exist. */
export function checkName(name: string): string {
  assertServerName(name);
  return name;
}

export function parseEnvFlags(entries: readonly string[]): Record<string, string> {
  const env: Record<string, string> = {};
  for (const entry of entries) {
    const at = entry.indexOf('=');
    if (at <= 0)
      throw invalid(`Invalid --env "${entry}": expected NAME=value`, 'e.g. --env LOG_LEVEL=debug');
    env[entry.slice(0, at)] = entry.slice(at + 1);
  }
  return env;
}

export function parseHeaderFlags(entries: readonly string[]): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const entry of entries) {
    const at = entry.indexOf(':');
    const name = at === -1 ? '' : entry.slice(0, at).trim();
    if (name === '')
      throw invalid(
        `Invalid --header "${entry}": expected "Name: value"`,
        'e.g. --header "X-Api-Version: 2"',
      );
    headers[name] = entry.slice(at + 1).trim();
  }
  return headers;
}

function checkUrl(url: string): void {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw invalid(
      `Invalid --url "${url}": not a URL`,
      'give a full URL, e.g. --url https://example.com/mcp',
    );
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:')
    throw invalid(
      `Invalid --url "${url}": it must be an http:// or https:// URL`,
      'e.g. --url https://example.com/mcp',
    );
}

function remoteInput(name: string, options: AddOptions): ServerDefinitionInput {
  const url = options.url ?? '';
  if (options.env.length > 0 || options.cwd !== undefined)
    throw invalid('--env and --cwd apply to local (stdio) servers, not to --url servers');
  const transport = options.transport ?? 'http';
  if (transport !== 'http' && transport !== 'sse')
    throw invalid(
      `Invalid --transport "${transport}": expected http or sse`,
      'e.g. --transport sse',
    );
  checkUrl(url);
  return { name, transport, url, headers: parseHeaderFlags(options.header) };
}

function localInput(
  name: string,
  command: readonly string[],
  options: AddOptions,
  notes: string[],
): ServerDefinitionInput {
  const [program, ...args] = command;
  if (program === undefined || program === '')
    throw invalid(`Missing the command to run for "${name}"`);
  if (options.transport !== undefined || options.header.length > 0)
    throw invalid('--transport and --header apply to --url servers, not to local (stdio) servers');
  const anchored =
    options.cwd !== undefined || options.folder === undefined
      ? undefined
      : anchorLaunch({ command: program, args }, options.folder);
  if (anchored !== undefined) notes.push(anchored.note);
  // The daemon runs elsewhere: a relative directory would mean its cwd, not the user's.
  const cwd = options.cwd === undefined ? anchored?.cwd : resolve(options.cwd);
  return {
    name,
    transport: 'stdio',
    command: program,
    args,
    env: parseEnvFlags(options.env),
    ...(cwd === undefined ? {} : { cwd }),
  };
}

/**
 * `coffer mcp add <name> <url>`, as `claude mcp add --transport http <name> <url>` and
 * `gemini mcp add` take it: a lone http(s) URL where the command goes is no command.
 */
function urlInPlaceOfCommand(command: readonly string[]): string | undefined {
  const [only, more] = command;
  return only !== undefined && more === undefined && /^https?:\/\//i.test(only) ? only : undefined;
}

/** Which flag a schema field comes from, and an example of a good one. */
const FLAG_OF: Readonly<Record<string, readonly [string, string]>> = {
  command: ['the command', ADD_USAGE],
  url: ['--url', 'e.g. --url https://example.com/mcp'],
  env: ['--env', 'e.g. --env LOG_LEVEL=debug'],
  headers: ['--header', 'e.g. --header "X-Api-Version: 2"'],
  cwd: ['--cwd', 'e.g. --cwd ~/projects/notes'],
  transport: ['--transport', 'e.g. --transport sse'],
};

function issueError(issue: z.core.$ZodIssue): CofferError {
  const [field, key] = issue.path;
  const inner = issue.code === 'invalid_key' ? issue.issues[0]?.message : undefined;
  const [flag, hint] = (typeof field === 'string' ? FLAG_OF[field] : undefined) ?? [
    'input',
    ADD_USAGE,
  ];
  const subject = typeof key === 'string' ? `${flag} name "${key}"` : flag;
  return invalid(`Invalid ${subject}: ${inner ?? issue.message}`, hint);
}

/** The definition for POST /servers, or a one-line INVALID_INPUT naming the flag to fix. */
export function buildDefinition(
  name: string,
  command: readonly string[],
  options: AddOptions,
): AddPlan {
  checkName(name);
  if (options.url !== undefined && command.length > 0)
    throw invalid('Give either --url or a command, not both');
  const url = options.url ?? urlInPlaceOfCommand(command);
  const notes: string[] = urlCredentials(url).map(
    (where) =>
      `the URL holds a credential (${where}): it is kept in the server's definition, which coffer mcp show and coffer config export print; if the server also takes it as a header, give it with --secret-header instead`,
  );
  const input: ServerDefinitionInput = {
    ...(url !== undefined
      ? remoteInput(name, { ...options, url })
      : localInput(name, command, options, notes)),
    ...(options.shared === true ? { shared: true } : {}),
  };
  const parsed = serverDefinitionSchema.safeParse(input);
  if (parsed.success) return { definition: parsed.data, notes };
  const issue = parsed.error.issues[0];
  throw issue === undefined ? invalid('Invalid server definition') : issueError(issue);
}
