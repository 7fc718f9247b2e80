import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { ErrorCode, McpError } from '@modelcontextprotocol/sdk/types.js';
import { CofferError } from '../domain/errors.js';
import { fromSdkError } from './rpc-error.js';
import { StdioProcessTransport } from './stdio-process-transport.js';

/**
 * Why an upstream's handshake (start + `initialize`) failed, said so a user can fix it:
 * the command was not found, the process exited and said why on stderr, it wrote
 * something other than JSON-RPC on stdout, or it took longer than COFFER_CONNECT_TIMEOUT_MS.
 */

/** What a stdio upstream showed during its handshake; read before closing it. */
export interface StartReport {
  /** How it ended, if it did on its own. */
  readonly ended: string | undefined;
  /** The first stdout line that was not JSON-RPC. */
  readonly noise: string | undefined;
  readonly commandNotFound: boolean;
  /** A process of Coffer's, with a log of its own; false: a remote server. */
  readonly local: boolean;
}

export function startReport(transport: Transport): StartReport {
  if (!(transport instanceof StdioProcessTransport))
    return { ended: undefined, noise: undefined, commandNotFound: false, local: false };
  const { startFailure } = transport;
  return {
    local: true,
    ended: startFailure.describe(),
    noise: startFailure.noise,
    commandNotFound: startFailure.commandNotFound,
  };
}

export function handshakeError(
  server: string,
  error: unknown,
  report: StartReport,
  connectTimeoutMs: number,
): Error {
  if (isTimeout(error)) return timedOut(server, connectTimeoutMs, report);
  if (report.ended !== undefined)
    return startFailed(server, report.ended, report.commandNotFound, error);
  return fromSdkError(error, { server, closed: false, established: false, local: report.local });
}

function isTimeout(error: unknown): boolean {
  return error instanceof McpError && error.code === (ErrorCode.RequestTimeout as number);
}

function timedOut(server: string, timeoutMs: number, report: StartReport): CofferError {
  const { noise } = report;
  const within = `Upstream "${server}" did not finish starting (MCP initialize) within ${timeoutMs / 1000} s`;
  if (!report.local)
    return new CofferError('UPSTREAM_TIMEOUT', within, {
      hint: `check that it is up and answers at its URL (\`coffer mcp show ${server}\`); if it is only slow, raise COFFER_CONNECT_TIMEOUT_MS`,
      data: { server },
    });
  const message =
    noise === undefined
      ? within
      : `${within}; it wrote ${JSON.stringify(noise)} on stdout, which must carry only JSON-RPC`;
  return new CofferError('UPSTREAM_TIMEOUT', message, {
    hint:
      noise === undefined
        ? `see logs/upstream-${server}.log; if it is only slow to start, raise COFFER_CONNECT_TIMEOUT_MS`
        : `check that the command starts an MCP server over stdio (logs go to stderr); see logs/upstream-${server}.log`,
    data: { server },
  });
}

function startFailed(
  server: string,
  why: string,
  commandNotFound: boolean,
  cause: unknown,
): CofferError {
  return new CofferError('UPSTREAM_UNAVAILABLE', `Upstream "${server}" could not start: ${why}`, {
    hint: commandNotFound
      ? `use an absolute path, or check PATH: a daemon started by a desktop app may not have your shell's PATH (\`coffer mcp show ${server}\`)`
      : `see logs/upstream-${server}.log for all it wrote, and check its command, arguments, env and working directory with \`coffer mcp show ${server}\``,
    data: { server },
    cause,
  });
}
