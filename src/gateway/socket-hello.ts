import { CofferError } from '../domain/errors.js';
import { decodeJsonText } from '../domain/json-text.js';
import { serverNameProblem } from '../domain/naming.js';
import { parseToolsMode, type ToolsMode } from '../domain/tools-mode.js';
import type { SessionScope } from './session.js';

/** The version of the socket channel's hello exchange (docs/SHIM-SOCKET contract). */
export const SOCKET_PROTOCOL_VERSION = 1;

/** What a valid hello asks for. */
export interface Hello {
  readonly scope: SessionScope;
  readonly mode?: ToolsMode;
}

/** The daemon's answer line to a hello it accepts. */
export const READY_LINE = JSON.stringify({ coffer: 'ready', version: SOCKET_PROTOCOL_VERSION });

/** The answer line to a hello the daemon refuses; the connection then ends. */
export function refusedLine(error: CofferError): string {
  return JSON.stringify({
    coffer: 'refused',
    code: error.code,
    message: error.message,
    ...(error.hint === undefined ? {} : { hint: error.hint }),
  });
}

const invalid = (message: string, hint?: string): CofferError =>
  new CofferError('INVALID_INPUT', message, hint === undefined ? {} : { hint });

/**
 * Reads the first line of a socket connection:
 * `{"coffer":"hello","version":1,"token":"…","mode"?:"lean"|"full","server"?:"<name>"}`.
 * The token is checked before anything else is judged, so a caller without it learns
 * nothing about what the daemon would accept. Throws the CofferError to refuse with.
 */
export function parseHello(line: Buffer, tokenMatches: (given: string) => boolean): Hello {
  const decoded = decodeJsonText(line);
  const hello = decoded.ok ? decoded.value : undefined;
  if (typeof hello !== 'object' || hello === null || Array.isArray(hello))
    throw invalid(
      'The first line must be a JSON hello object',
      'update coffer: the shim and the daemon disagree',
    );
  const fields = hello as Record<string, unknown>;
  if (fields['coffer'] !== 'hello') throw invalid('The first line must be {"coffer":"hello",…}');
  const token = fields['token'];
  if (typeof token !== 'string' || !tokenMatches(token))
    throw new CofferError('UNAUTHORIZED', 'The token does not match this daemon', {
      hint: 'read the token from daemon.json again (the daemon may have restarted)',
    });
  if (fields['version'] !== SOCKET_PROTOCOL_VERSION)
    throw invalid(
      `Unsupported socket protocol version ${JSON.stringify(fields['version']) ?? 'undefined'}; this daemon speaks ${SOCKET_PROTOCOL_VERSION}`,
      'run the same coffer version for the shim and the daemon (`coffer restart`)',
    );
  return { scope: scopeOf(fields['server']), ...modeOf(fields['mode'], fields['server']) };
}

function scopeOf(server: unknown): SessionScope {
  if (server === undefined) return { kind: 'aggregated' };
  if (typeof server !== 'string') throw invalid('"server" must be a server name');
  const problem = serverNameProblem(server);
  if (problem !== undefined) throw invalid(`"server" is not a server name: ${problem}`);
  return { kind: 'single', server };
}

function modeOf(mode: unknown, server: unknown): { mode?: ToolsMode } {
  if (mode === undefined) return {};
  if (server !== undefined)
    throw invalid('"mode" applies to the aggregated session only, not with "server"');
  if (typeof mode !== 'string') throw invalid('"mode" must be "full" or "lean"');
  return { mode: parseToolsMode(mode, '"mode"') };
}
