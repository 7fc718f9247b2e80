import { CofferError } from '../domain/errors.js';
import { DEFAULT_RESULT_BUDGET_TOKENS, parseResultBudget } from '../domain/result-budget.js';
import { DEFAULT_TOOLS_MODE, parseToolsMode, type ToolsMode } from '../domain/tools-mode.js';

/**
 * Tunables of the daemon, each overridable by an environment variable (tests use short
 * values). Defaults follow the design: 60 s list cache (ADR-004), 120 s idle request
 * timeout reset by progress.
 */
export interface DaemonSettings {
  readonly listTtlMs: number;
  readonly listTimeoutMs: number;
  readonly requestTimeoutMs: number;
  /** An upstream's start and MCP handshake: slower than a call (an `npx` download, a cold JVM). */
  readonly connectTimeoutMs: number;
  readonly maxTotalTimeoutMs: number | undefined;
  /** The tool list of `/mcp` sessions that do not ask for one (`?mode=`). */
  readonly toolsMode: ToolsMode;
  /** A session with no request for this long is closed with its upstreams. */
  readonly sessionIdleMs: number;
  /** A session whose GET stream dropped, with nothing else from its client, is closed after this. */
  readonly sessionGraceMs: number;
  /** Sessions kept at most: one more closes the one whose client was quiet longest. */
  readonly maxSessions: number;
  /** Live stdio upstream processes allowed per server, across all sessions. */
  readonly maxProcessesPerServer: number;
  /** OAuth access tokens are refreshed this long before they expire (docs/OAUTH.md). */
  readonly oauthRefreshSkewMs: number;
  /** An HTTPS Client ID Metadata Document describing Coffer, where one is published. */
  readonly oauthClientMetadataUrl: string | undefined;
  /** How often the daemon checks that daemon.json still names it (daemon-file-guard.ts). */
  readonly daemonFileCheckMs: number;
  /** Tool results over this many tokens are cut and kept to read in pages; undefined: off. */
  readonly resultBudgetTokens: number | undefined;
  /** How long a cut result stays readable. */
  readonly resultTtlMs: number;
  /** Refuse calls whose arguments look like credentials (CREDENTIAL_BLOCKED), not only flag them. */
  readonly blockCredentials: boolean;
}

const variables = {
  listTtlMs: ['COFFER_LIST_TTL_MS', 60_000],
  listTimeoutMs: ['COFFER_LIST_TIMEOUT_MS', 10_000],
  requestTimeoutMs: ['COFFER_REQUEST_TIMEOUT_MS', 120_000],
  connectTimeoutMs: ['COFFER_CONNECT_TIMEOUT_MS', 60_000],
  sessionIdleMs: ['COFFER_SESSION_IDLE_MS', 30 * 60_000],
  // Longer than the shim's GET-stream retries (about 5 s), so a blip is not a vanished client.
  sessionGraceMs: ['COFFER_SESSION_GRACE_MS', 60_000],
  oauthRefreshSkewMs: ['COFFER_OAUTH_REFRESH_SKEW_MS', 60_000],
  daemonFileCheckMs: ['COFFER_DAEMON_FILE_CHECK_MS', 2_000],
  resultTtlMs: ['COFFER_RESULT_TTL_MS', 30 * 60_000],
} as const;

const MAX_PROCESSES = ['COFFER_MAX_PROCESSES_PER_SERVER', 64] as const;
const MAX_SESSIONS = ['COFFER_MAX_SESSIONS', 1_000] as const;

export function readSettings(env: NodeJS.ProcessEnv = process.env): DaemonSettings {
  const cap = env['COFFER_MAX_REQUEST_MS'];
  return {
    listTtlMs: positive(env, ...variables.listTtlMs),
    listTimeoutMs: positive(env, ...variables.listTimeoutMs),
    requestTimeoutMs: positive(env, ...variables.requestTimeoutMs),
    connectTimeoutMs: positive(env, ...variables.connectTimeoutMs),
    maxTotalTimeoutMs: cap === undefined ? undefined : positive(env, 'COFFER_MAX_REQUEST_MS', 0),
    sessionIdleMs: positive(env, ...variables.sessionIdleMs),
    sessionGraceMs: positive(env, ...variables.sessionGraceMs),
    maxProcessesPerServer: positive(env, ...MAX_PROCESSES, 'processes'),
    maxSessions: positive(env, ...MAX_SESSIONS, 'sessions'),
    toolsMode: env['COFFER_TOOLS_MODE']
      ? parseToolsMode(env['COFFER_TOOLS_MODE'], 'COFFER_TOOLS_MODE')
      : DEFAULT_TOOLS_MODE,
    oauthRefreshSkewMs: positive(env, ...variables.oauthRefreshSkewMs),
    oauthClientMetadataUrl: httpsUrl(env, 'COFFER_OAUTH_CLIENT_METADATA_URL'),
    daemonFileCheckMs: positive(env, ...variables.daemonFileCheckMs),
    resultBudgetTokens: env['COFFER_RESULT_BUDGET_TOKENS']
      ? parseResultBudget(env['COFFER_RESULT_BUDGET_TOKENS'], 'COFFER_RESULT_BUDGET_TOKENS')
      : DEFAULT_RESULT_BUDGET_TOKENS,
    resultTtlMs: positive(env, ...variables.resultTtlMs),
    blockCredentials: onOff(env, 'COFFER_BLOCK_CREDENTIALS'),
  };
}

/** An opt-in switch: `1`/`on`/`true` or `0`/`off`/`false`; unset is off. */
function onOff(env: NodeJS.ProcessEnv, name: string): boolean {
  const text = (env[name] ?? '').trim().toLowerCase();
  if (text === '' || text === '0' || text === 'off' || text === 'false') return false;
  if (text === '1' || text === 'on' || text === 'true') return true;
  throw new CofferError('INVALID_INPUT', `${name} must be 1 (on) or 0 (off), not "${env[name]}"`);
}

function httpsUrl(env: NodeJS.ProcessEnv, name: string): string | undefined {
  const text = env[name];
  if (text === undefined || text === '') return undefined;
  let url: URL | undefined;
  try {
    url = new URL(text);
  } catch {
    url = undefined;
  }
  if (url?.protocol !== 'https:' || url.pathname === '/')
    throw new CofferError(
      'INVALID_INPUT',
      `${name} must be an https:// URL with a path, not "${text}"`,
    );
  return text;
}

function positive(
  env: NodeJS.ProcessEnv,
  name: string,
  fallback: number,
  unit = 'milliseconds',
): number {
  const text = env[name];
  if (text === undefined || text === '') return fallback;
  const value = Number(text);
  if (!Number.isInteger(value) || value <= 0) {
    throw new CofferError(
      'INVALID_INPUT',
      `${name} must be a positive whole number of ${unit}, not "${text}"`,
    );
  }
  return value;
}
