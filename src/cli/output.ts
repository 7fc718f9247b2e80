import { isCofferError, toCofferError, type ErrorCode } from '../domain/errors.js';

/** Where the CLI writes: process.stdout/stderr, or a buffer in tests. */
export interface OutputStream {
  write(text: string): void;
  readonly isTTY: boolean;
}

/**
 * Exit codes of every `coffer` command, mapped from error codes once, here.
 *
 * | code | meaning                                   | error codes                                          |
 * |------|-------------------------------------------|------------------------------------------------------|
 * | 0    | success                                   |                                                      |
 * | 1    | generic / internal failure                | INTERNAL, STORE_FAILURE                              |
 * | 2    | bad input or usage                        | INVALID_INPUT, INVALID_SERVER_NAME, PAYLOAD_TOO_LARGE, command-line usage errors |
 * | 3    | not found                                 | SERVER_NOT_FOUND, CAPABILITY_NOT_FOUND, TASK_NOT_FOUND, NOT_FOUND, SECRET_NOT_FOUND |
 * | 4    | conflict with the current state           | SERVER_EXISTS, DAEMON_ALREADY_RUNNING, SERVER_DISABLED, TOOL_DISABLED, PROMPT_DISABLED, RESOURCE_DISABLED, TOOL_DENIED, APPROVAL_REQUIRED, CALL_DECLINED, TOOL_CHANGED, SECRET_BLOCKED, CREDENTIAL_BLOCKED |
 * | 5    | daemon or upstream unavailable            | DAEMON_UNAVAILABLE, PORT_RANGE_EXHAUSTED, UPSTREAM_UNAVAILABLE, UPSTREAM_TIMEOUT, UPSTREAM_SESSION_EXPIRED, PROCESS_LIMIT_REACHED |
 * | 6    | not authorised                            | UNAUTHORIZED, FORBIDDEN, AUTH_REQUIRED               |
 */
export const ExitCode = {
  OK: 0,
  GENERIC: 1,
  USAGE: 2,
  NOT_FOUND: 3,
  CONFLICT: 4,
  UNAVAILABLE: 5,
  AUTH: 6,
} as const;

export type ExitCode = (typeof ExitCode)[keyof typeof ExitCode];

/** A Record over every ErrorCode: adding a code to the domain fails to compile until mapped. */
export const exitCodeByErrorCode: Readonly<Record<ErrorCode, ExitCode>> = {
  INTERNAL: ExitCode.GENERIC,
  STORE_FAILURE: ExitCode.GENERIC,
  INVALID_INPUT: ExitCode.USAGE,
  INVALID_SERVER_NAME: ExitCode.USAGE,
  PAYLOAD_TOO_LARGE: ExitCode.USAGE,
  SERVER_NOT_FOUND: ExitCode.NOT_FOUND,
  CAPABILITY_NOT_FOUND: ExitCode.NOT_FOUND,
  TASK_NOT_FOUND: ExitCode.NOT_FOUND,
  NOT_FOUND: ExitCode.NOT_FOUND,
  SECRET_NOT_FOUND: ExitCode.NOT_FOUND,
  SERVER_EXISTS: ExitCode.CONFLICT,
  DAEMON_ALREADY_RUNNING: ExitCode.CONFLICT,
  SERVER_DISABLED: ExitCode.CONFLICT,
  TOOL_DISABLED: ExitCode.CONFLICT,
  TOOL_DENIED: ExitCode.CONFLICT,
  SECRET_BLOCKED: ExitCode.CONFLICT,
  CREDENTIAL_BLOCKED: ExitCode.CONFLICT,
  APPROVAL_REQUIRED: ExitCode.CONFLICT,
  CALL_DECLINED: ExitCode.CONFLICT,
  TOOL_CHANGED: ExitCode.CONFLICT,
  PROMPT_DISABLED: ExitCode.CONFLICT,
  RESOURCE_DISABLED: ExitCode.CONFLICT,
  DAEMON_UNAVAILABLE: ExitCode.UNAVAILABLE,
  PORT_RANGE_EXHAUSTED: ExitCode.UNAVAILABLE,
  UPSTREAM_UNAVAILABLE: ExitCode.UNAVAILABLE,
  UPSTREAM_TIMEOUT: ExitCode.UNAVAILABLE,
  UPSTREAM_SESSION_EXPIRED: ExitCode.UNAVAILABLE,
  PROCESS_LIMIT_REACHED: ExitCode.UNAVAILABLE,
  UNAUTHORIZED: ExitCode.AUTH,
  FORBIDDEN: ExitCode.AUTH,
  AUTH_REQUIRED: ExitCode.AUTH,
};

/**
 * Ends a command with an exit code and no further message (the command already said
 * what it had to, e.g. `coffer status` printing "not running").
 */
export class CliExit extends Error {
  override readonly name = 'CliExit';
  constructor(readonly exitCode: number) {
    super(`exit ${exitCode}`);
  }
}

export function exitCodeFor(error: unknown): number {
  if (error instanceof CliExit) return error.exitCode;
  return exitCodeByErrorCode[toCofferError(error).code];
}

/**
 * One line: `coffer: <message> (<hint>)`. Errors that are not CofferErrors are shown as
 * a generic internal error (their text may hold paths or secrets) unless COFFER_DEBUG
 * is set, which prints the stack.
 */
export function formatError(error: unknown, env: NodeJS.ProcessEnv = process.env): string {
  const debug = env['COFFER_DEBUG'] !== undefined && env['COFFER_DEBUG'] !== '';
  if (!isCofferError(error)) {
    if (debug)
      return `coffer: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`;
    return 'coffer: internal error (rerun with COFFER_DEBUG=1 for details)';
  }
  // The daemon's traceId finds this request's lines in logs/coffer.log (`coffer logs`).
  const traceId = error.data?.['traceId'];
  const trace = typeof traceId === 'string' && traceId !== '' ? ` [trace ${traceId}]` : '';
  const line = `coffer: ${error.userMessage}${trace}`;
  if (debug && error.cause !== undefined) {
    const cause =
      error.cause instanceof Error
        ? (error.cause.stack ?? error.cause.message)
        : JSON.stringify(error.cause);
    return `${line}\n  caused by: ${cause}`;
  }
  return line;
}

/**
 * The error as the JSON a `--json` command prints on stdout, so a script reading stdout
 * reads a document whether the command worked or not: `{"error": {code, message, hint?,
 * exit_code}}`. An unknown error says no more than its text line does.
 */
export function jsonError(error: unknown): string {
  const known = toCofferError(error);
  const exitCode = exitCodeFor(error);
  const body = {
    code: known.code,
    message: known.message,
    ...(known.hint === undefined ? {} : { hint: known.hint }),
    exit_code: exitCode,
  };
  return JSON.stringify({ error: body }, null, 2);
}

/**
 * Prints the error (if it has something to say) and returns the exit code. With
 * `json`, stdout gets the error as JSON too; stderr keeps the line a person reads.
 */
export function reportError(
  streams: {
    readonly stderr: OutputStream;
    readonly stdout?: OutputStream;
    readonly json?: boolean;
  },
  error: unknown,
  env: NodeJS.ProcessEnv = process.env,
): number {
  if (error instanceof CliExit) return error.exitCode;
  streams.stderr.write(`${formatError(error, env)}\n`);
  if (streams.json === true) streams.stdout?.write(`${jsonError(error)}\n`);
  return exitCodeFor(error);
}
