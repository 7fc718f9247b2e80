import type { Context } from 'hono';
import type { z } from 'zod';
import { CofferError } from '../domain/errors.js';
import { decodeJsonText } from '../domain/json-text.js';

type Issue = z.core.$ZodIssue;

function formatPath(path: readonly PropertyKey[]): string {
  return path
    .map((part, index) =>
      typeof part === 'number' ? `[${part}]` : `${index === 0 ? '' : '.'}${String(part)}`,
    )
    .join('');
}

/** A record-key issue says only "Invalid key in record"; the nested issue says why. */
function issueMessage(issue: Issue): string {
  if (issue.code === 'invalid_key') {
    const inner = issue.issues[0];
    if (inner !== undefined) return inner.message;
  }
  return issue.message;
}

/** The first issue on one line: "<path>: <message>", which is what a user needs to fix. */
export function describeIssue(issue: Issue): string {
  const path = formatPath(issue.path);
  const message = issueMessage(issue);
  return path === '' ? message : `${path}: ${message}`;
}

/** Validates with zod; the first problem becomes INVALID_INPUT (INVALID_SERVER_NAME for names). */
export function parseInput<S extends z.ZodType>(schema: S, value: unknown): z.output<S> {
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  const issue = result.error.issues[0];
  if (issue === undefined) throw new CofferError('INVALID_INPUT', 'Invalid request');
  const code = issue.path[0] === 'name' ? 'INVALID_SERVER_NAME' : 'INVALID_INPUT';
  throw new CofferError(code, describeIssue(issue));
}

/** Definitions and toggle lists are small; anything larger is a mistake or an attack. */
export const MAX_BODY_BYTES = 1024 * 1024;

function tooLarge(): CofferError {
  return new CofferError('PAYLOAD_TOO_LARGE', `The request body exceeds ${MAX_BODY_BYTES} bytes`);
}

/** A declared Content-Length over the limit is refused before a byte is read. */
export function refuseDeclaredOversize(c: Context): void {
  const declared = Number(c.req.header('content-length') ?? '0');
  if (declared > MAX_BODY_BYTES) throw tooLarge();
}

/**
 * Reads at most MAX_BODY_BYTES. Not hono's bodyLimit: it rebuilds the Request with
 * `new Request(raw)`, which throws (→ 500) for an unsized body, e.g. a DELETE from
 * fetch, under @hono/node-server without its global overrides, which is how the
 * daemon serves this app.
 */
async function readBodyBytes(c: Context): Promise<Buffer> {
  refuseDeclaredOversize(c);
  const body = c.req.raw.body;
  if (body === null) return Buffer.alloc(0);
  const reader = (body as ReadableStream<Uint8Array>).getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > MAX_BODY_BYTES) {
      await reader.cancel();
      throw tooLarge();
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks);
}

/**
 * Reads the body as JSON (at most MAX_BODY_BYTES, UTF-8, not too deep, no `__proto__`
 * key: domain/json-text.ts); a missing or malformed body is the caller's mistake (400).
 * The message never quotes the body, which may hold a secret.
 */
export async function readJsonBody(c: Context): Promise<unknown> {
  const bytes = await readBodyBytes(c);
  if (bytes.toString('utf8').trim() === '')
    throw new CofferError('INVALID_INPUT', 'The request body must be JSON');
  const decoded = decodeJsonText(bytes);
  if (!decoded.ok) throw new CofferError('INVALID_INPUT', decoded.message);
  return decoded.value;
}
