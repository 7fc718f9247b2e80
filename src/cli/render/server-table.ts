import Table from 'cli-table3';
import type { ServerState, ServerStatus } from '../../domain/ports.js';
import type { ServerRecord } from '../../domain/server-definition.js';
import { reviewCommand } from '../../domain/tool-pin.js';
import type { Colors } from './colors.js';
import { countsText } from './count-words.js';

/** A server as GET /api/v1/servers shows it. */
export type ServerView = ServerRecord & {
  readonly status: ServerStatus;
  /** Absent from a daemon older than the pin check. */
  readonly held_tools?: number;
  /** A remote server: OAuth tokens held for its URL (absent for a local one). */
  readonly signed_in?: boolean;
  readonly oauth_client_id?: string;
};

function stateCell(state: ServerState, colors: Colors): string {
  switch (state) {
    case 'running':
      return colors.green(state);
    case 'error':
    case 'crash-loop':
      return colors.red(state);
    case 'needs-sign-in':
      return colors.yellow(state);
    case 'starting':
      return colors.yellow('starting…');
    case 'disabled':
      return colors.dim(state);
    case 'idle':
      return state;
  }
}

function count(status: ServerStatus, kind: 'tools' | 'prompts' | 'resources'): string {
  // Never listed yet (no kind, or not this one): "-", not 0; unknown is not empty (ADR-004).
  const counted = status.counts?.[kind];
  return counted === undefined ? '-' : String(counted);
}

/** The tools cell; tools held back for review are counted beside it, as `--tree` marks them. */
function toolsCell(server: ServerView, colors: Colors): string {
  const held = server.held_tools ?? 0;
  const tools = count(server.status, 'tools');
  return held === 0 ? tools : `${tools} ${colors.yellow(`(${held} held)`)}`;
}

/** One line per server with held-back tools, naming the command that reviews them. */
function heldFooter(servers: readonly ServerView[]): string {
  return servers
    .filter((server) => (server.held_tools ?? 0) > 0)
    .map((server) => {
      const held = server.held_tools ?? 0;
      const what =
        held === 1
          ? '1 tool held back (changed since you allowed it)'
          : `${held} tools held back (changed since you allowed them)`;
      return `${server.name}: ${what} — review: ${reviewCommand(server.name)}\n`;
    })
    .join('');
}

/**
 * One line per enabled server whose last attempt failed: what went wrong and what to do,
 * so the table's "error" is not left for the user to look into (`coffer mcp show`).
 */
function errorFooter(servers: readonly ServerView[], colors: Colors): string {
  return servers
    .flatMap(({ name, enabled, status }) => {
      const error = status.last_error;
      if (!enabled || error === null || !isFailing(status)) return [];
      const fix = error.hint === undefined ? '' : ` — fix: ${error.hint}`;
      return [`${name}: ${colors.red(error.message)}${fix}\n`];
    })
    .join('');
}

function isFailing(status: ServerStatus): boolean {
  return status.state === 'error' || status.state === 'crash-loop';
}

/** `coffer mcp list`: one row per server. */
export function renderServerTable(servers: readonly ServerView[], colors: Colors): string {
  const table = new Table({
    head: ['name', 'transport', 'enabled', 'state', 'tools', 'prompts', 'resources'].map((h) =>
      colors.bold(h),
    ),
    // cli-table3 colours headers and borders itself; colours are ours to decide.
    style: { head: [], border: [] },
    colAligns: ['left', 'left', 'left', 'left', 'right', 'right', 'right'],
  });
  for (const server of servers) {
    table.push([
      server.name,
      server.shared ? `${server.transport} (shared)` : server.transport,
      server.enabled ? 'yes' : colors.dim('no'),
      stateCell(server.status.state, colors),
      toolsCell(server, colors),
      count(server.status, 'prompts'),
      count(server.status, 'resources'),
    ]);
  }
  return `${table.toString()}\n${errorFooter(servers, colors)}${heldFooter(servers)}`;
}

/** What the server runs or dials, on one line. */
export function describeTarget(server: ServerRecord): string {
  if (server.transport === 'stdio') return [server.command ?? '', ...server.args].join(' ');
  return server.url ?? '';
}

/**
 * `coffer mcp show`: the definition and status as aligned "key: value" lines. `stored`:
 * which secrets have a value (`env/NAME`), undefined when the daemon could not tell.
 */
export function renderServerDetails(
  server: ServerView,
  colors: Colors,
  stored?: ReadonlySet<string>,
): string {
  const rows: [string, string][] = [
    ['name', colors.bold(server.name)],
    ['transport', server.transport],
    [server.transport === 'stdio' ? 'command' : 'url', describeTarget(server)],
  ];
  if (server.cwd !== undefined) rows.push(['cwd', server.cwd]);
  for (const [key, value] of Object.entries(server.env)) rows.push(['env', `${key}=${value}`]);
  for (const [key, value] of Object.entries(server.headers))
    rows.push(['header', `${key}: ${value}`]);
  const state = (kind: 'env' | 'header', key: string): string => {
    if (stored === undefined) return key;
    if (stored.has(`${kind}/${key}`)) return `${key} (stored)`;
    const flag = kind === 'env' ? '--env' : '--header';
    return `${key} ${colors.red(`(not set: coffer secrets set ${server.name} ${flag} ${key})`)}`;
  };
  for (const key of server.secret_env) rows.push(['secret env', state('env', key)]);
  for (const key of server.secret_headers) rows.push(['secret header', state('header', key)]);
  rows.push(
    ['enabled', server.enabled ? 'yes' : 'no'],
    ['auto-enable', server.auto_enable_new_capabilities ? 'new capabilities on' : 'off'],
    ['shared', server.shared ? 'yes, one connection for all agents' : 'no'],
    ['state', stateCell(server.status.state, colors)],
  );
  if (server.signed_in !== undefined)
    rows.push([
      'sign-in',
      server.signed_in
        ? 'signed in (OAuth tokens for this URL in the keychain)'
        : `none (if it uses OAuth: coffer mcp login ${server.name})`,
    ]);
  if (server.oauth_client_id !== undefined)
    rows.push(['oauth client', `${server.oauth_client_id} (pre-registered)`]);
  const version = server.status.protocol_version;
  if (version !== undefined) rows.push(['protocol', `MCP ${version}`]);
  const counts = server.status.counts;
  const listed = counts === null ? '' : countsText(counts);
  if (listed !== '') rows.push(['capabilities', listed]);
  const error = server.status.last_error;
  if (error !== null) {
    rows.push(['last error', colors.red(`${error.code}: ${error.message} (${error.at})`)]);
    if (error.hint !== undefined) rows.push(['fix', error.hint]);
  }
  const width = Math.max(...rows.map(([key]) => key.length));
  return rows.map(([key, value]) => `${`${key}:`.padEnd(width + 2)}${value}\n`).join('');
}
