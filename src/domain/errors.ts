/**
 * The one error type of Coffer. Every failure that crosses a layer is a CofferError
 * with a stable string code; each edge (MCP, REST, CLI) maps codes once, in its own
 * file. Anything else that escapes is shown to users as INTERNAL, without details.
 */
export const errorCodes = [
  'INTERNAL',
  'INVALID_INPUT',
  'INVALID_SERVER_NAME',
  'SERVER_EXISTS',
  'SERVER_NOT_FOUND',
  'SERVER_DISABLED',
  'CAPABILITY_NOT_FOUND',
  'TASK_NOT_FOUND',
  'TOOL_DISABLED',
  'PROMPT_DISABLED',
  'RESOURCE_DISABLED',
  'TOOL_DENIED',
  'APPROVAL_REQUIRED',
  'CALL_DECLINED',
  'TOOL_CHANGED',
  'SECRET_BLOCKED',
  'CREDENTIAL_BLOCKED',
  'UPSTREAM_UNAVAILABLE',
  'UPSTREAM_TIMEOUT',
  'UPSTREAM_SESSION_EXPIRED',
  'PROCESS_LIMIT_REACHED',
  'UNAUTHORIZED',
  'FORBIDDEN',
  'NOT_FOUND',
  'PAYLOAD_TOO_LARGE',
  'DAEMON_UNAVAILABLE',
  'DAEMON_ALREADY_RUNNING',
  'PORT_RANGE_EXHAUSTED',
  'STORE_FAILURE',
  'AUTH_REQUIRED',
  'SECRET_NOT_FOUND',
] as const;

export type ErrorCode = (typeof errorCodes)[number];

export interface CofferErrorOptions {
  /** What the user can do about it, e.g. "enable it with `coffer mcp enable …`". */
  readonly hint?: string;
  /** Structured details safe to show (never secrets). */
  readonly data?: Readonly<Record<string, unknown>>;
  readonly cause?: unknown;
}

export class CofferError extends Error {
  override readonly name = 'CofferError';
  readonly code: ErrorCode;
  readonly hint: string | undefined;
  readonly data: Readonly<Record<string, unknown>> | undefined;

  constructor(code: ErrorCode, message: string, options: CofferErrorOptions = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.code = code;
    this.hint = options.hint;
    this.data = options.data;
  }

  /** The message with its hint, as a user reads it on one line. */
  get userMessage(): string {
    return this.hint === undefined ? this.message : `${this.message} (${this.hint})`;
  }
}

export function isCofferError(value: unknown): value is CofferError {
  return value instanceof CofferError;
}

/**
 * Normalises anything thrown into a CofferError. Unknown errors become INTERNAL with a
 * generic message: their text may hold paths or secrets, so it goes to the log only.
 */
export function toCofferError(value: unknown): CofferError {
  if (value instanceof CofferError) return value;
  return new CofferError('INTERNAL', 'Internal error; see logs/coffer.log for details', {
    cause: value,
  });
}

export function isErrorCode(value: unknown): value is ErrorCode {
  return typeof value === 'string' && (errorCodes as readonly string[]).includes(value);
}
