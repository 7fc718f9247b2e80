import {
  isJsonObject,
  isJsonRpcId,
  kindOf,
  type JsonRpcId,
  type JsonRpcMessage,
  type MessageKind,
} from './json-rpc.js';

/** How the daemon starts every answer it writes (gateway/serialized-results.ts). */
const RESPONSE_PREFIX = Buffer.from('{"jsonrpc":"2.0","id":');
const RESULT = Buffer.from(',"result":');
const ERROR = Buffer.from(',"error":');
const QUOTE = 0x22;
const BACKSLASH = 0x5c;
/** Longer ids are read the slow way; ours and the SDK's are numbers or short strings. */
const MAX_ID_BYTES = 256;

/**
 * One message from the daemon, as the relay needs it: its kind and id, and the exact
 * bytes to write to the client. An answer is recognised by its first bytes alone and
 * parsed only if something asks for its content (the initialize answer's capabilities):
 * a 490 KB tools/list answer used to cost the shim 4 ms of JSON.parse and re-encoding,
 * ten times what the daemon spends on it. Anything else is parsed at once, as before.
 */
export class DaemonMessage {
  private constructor(
    readonly kind: MessageKind,
    readonly id: unknown,
    /** The message's exact line, without its newline. */
    readonly raw: Buffer | string,
    private parsed: JsonRpcMessage | undefined,
  ) {}

  /** A message already parsed (from a batch line, or the slow path). */
  static parsed(message: JsonRpcMessage, raw: Buffer | string): DaemonMessage {
    return new DaemonMessage(kindOf(message), message['id'], raw, message);
  }

  /** An answer read from its head, or undefined when the line does not start like one. */
  static answer(line: Buffer): DaemonMessage | undefined {
    const id = answerId(line);
    return id === undefined ? undefined : new DaemonMessage('response', id, line, undefined);
  }

  /** The whole message, parsed on first use. */
  get message(): JsonRpcMessage {
    if (this.parsed === undefined) {
      const value: unknown = JSON.parse(this.raw.toString());
      this.parsed = isJsonObject(value) ? value : {};
    }
    return this.parsed;
  }
}

/**
 * The id of `{"jsonrpc":"2.0","id":<id>,"result":…` or `…,"error":…`: a number, or a
 * string without escapes. Anything else (another key order, an escaped id) is left to
 * JSON.parse; an answer is never misread, at worst read slowly.
 */
export function answerId(line: Buffer): JsonRpcId | undefined {
  if (!startsWith(line, RESPONSE_PREFIX, 0)) return undefined;
  const start = RESPONSE_PREFIX.length;
  const end = idEnd(line, start);
  if (end === undefined) return undefined;
  if (!startsWith(line, RESULT, end) && !startsWith(line, ERROR, end)) return undefined;
  const token = line.toString('utf8', start, end);
  const id: unknown = line[start] === QUOTE ? token.slice(1, -1) : Number(token);
  return isJsonRpcId(id) ? id : undefined;
}

/** Where the id token starting at `start` ends (exclusive); undefined if it is not plain. */
function idEnd(line: Buffer, start: number): number | undefined {
  const limit = Math.min(line.length, start + MAX_ID_BYTES);
  if (line[start] === QUOTE) {
    for (let i = start + 1; i < limit; i++) {
      if (line[i] === BACKSLASH) return undefined;
      if (line[i] === QUOTE) return i + 1;
    }
    return undefined;
  }
  let i = start;
  while (i < limit && isNumberByte(line[i]!)) i++;
  return i > start ? i : undefined;
}

function isNumberByte(byte: number): boolean {
  // 0-9 - + . e E
  return (
    (byte >= 0x30 && byte <= 0x39) ||
    byte === 0x2d ||
    byte === 0x2b ||
    byte === 0x2e ||
    byte === 0x65 ||
    byte === 0x45
  );
}

function startsWith(line: Buffer, prefix: Buffer, at: number): boolean {
  return (
    line.length >= at + prefix.length &&
    line.compare(prefix, 0, prefix.length, at, at + prefix.length) === 0
  );
}
