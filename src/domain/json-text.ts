/**
 * Decoding a request body into JSON, shared by the two edges that take bodies from
 * clients (the MCP endpoint and the REST API), so both refuse the same hostile input.
 * Pure: bytes in, a value or a reason out; each edge maps the reason to its own error.
 *
 * Refused, beyond what JSON.parse refuses:
 * - bytes that are not UTF-8: decoding would silently turn them into U+FFFD, and a
 *   mangled secret or argument is worse than an error;
 * - nesting deeper than MAX_JSON_DEPTH: nothing legitimate is that deep, and every
 *   recursive consumer downstream (schema validation, logging, relaying) pays for it;
 * - a `__proto__` key at any depth: JSON.parse keeps it as an own key, but the first
 *   copy by assignment (schema parsers build their output that way) turns it into a
 *   prototype, so the value vanishes or reshapes an object. Refused, never dropped.
 *   `constructor` and `prototype` are ordinary keys once parsed and stay accepted
 *   (an environment variable may well be called `constructor`).
 *
 * Duplicate keys keep JSON.parse's rule (the last one wins) everywhere in Coffer, so
 * no two parsers of the same body can disagree; and Coffer forwards what it parsed,
 * serialised again, so an upstream sees exactly the name and arguments whose preference
 * Coffer checked (the duplicate never travels on). Refusing them would cost a second
 * scan of every message for no protection gained (issue #19).
 */
export const MAX_JSON_DEPTH = 100;

export type JsonTextProblem = 'encoding' | 'syntax' | 'depth' | 'proto-key';

export type JsonTextResult =
  /** `text` is the decoded input, for a relay that passes the message on as it came. */
  | { readonly ok: true; readonly value: unknown; readonly text: string }
  | { readonly ok: false; readonly problem: JsonTextProblem; readonly message: string };

const utf8 = new TextDecoder('utf-8', { fatal: true });

/**
 * `subject` names the text in the messages: an edge's "The request body", or the CLI's
 * "The file", so a user reading a file's error is not told about a request.
 */
export function decodeJsonText(bytes: Uint8Array, subject = 'The request body'): JsonTextResult {
  let text: string;
  try {
    text = utf8.decode(bytes);
  } catch {
    return failure('encoding', `${subject} is not valid UTF-8`);
  }
  // Before parsing: JSON.parse itself takes seconds over a million nested brackets.
  if (nestsTooDeep(text)) return tooDeep(subject);
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    return failure('syntax', syntaxMessage(error, subject));
  }
  return checkStructure(value, text, subject);
}

function failure(problem: JsonTextProblem, message: string): JsonTextResult {
  return { ok: false, problem, message };
}

/**
 * V8's message quotes the input, and a body may hold a secret: keep only the position.
 */
function syntaxMessage(error: unknown, subject: string): string {
  const position = error instanceof Error ? /position (\d+)/.exec(error.message)?.[1] : undefined;
  return position === undefined
    ? `${subject} is not valid JSON`
    : `${subject} is not valid JSON (at position ${position})`;
}

const tooDeep = (subject: string): JsonTextResult =>
  failure('depth', `${subject} is nested deeper than ${MAX_JSON_DEPTH} levels`);

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const OPENERS = new Set([0x5b, 0x7b]); // [ {
const CLOSERS = new Set([0x5d, 0x7d]); // ] }

/** Bracket depth outside strings, in one pass; malformed text is left to JSON.parse. */
function nestsTooDeep(text: string): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const char = text.charCodeAt(i);
    if (inString) {
      if (char === BACKSLASH) i++;
      else if (char === QUOTE) inString = false;
    } else if (char === QUOTE) inString = true;
    else if (OPENERS.has(char)) {
      if (++depth > MAX_JSON_DEPTH) return true;
    } else if (CLOSERS.has(char)) depth--;
  }
  return false;
}

/** One iterative walk (no recursion, whatever the input). */
function checkStructure(root: unknown, text: string, subject: string): JsonTextResult {
  const stack: Array<{ value: unknown; depth: number }> = [{ value: root, depth: 0 }];
  while (stack.length > 0) {
    const { value, depth } = stack.pop()!;
    if (value === null || typeof value !== 'object') continue;
    if (depth >= MAX_JSON_DEPTH) return tooDeep(subject);
    if (Array.isArray(value)) {
      for (const item of value as unknown[]) stack.push({ value: item, depth: depth + 1 });
      continue;
    }
    if (Object.hasOwn(value, '__proto__'))
      return failure('proto-key', `${subject} contains a "__proto__" key, which is refused`);
    for (const item of Object.values(value)) stack.push({ value: item, depth: depth + 1 });
  }
  return { ok: true, value: root, text };
}
