import type { IncomingMessage } from 'node:http';
import { decodeJsonText } from '../domain/json-text.js';

/** Far above any real MCP message; bounds what a hostile client can make us buffer. */
export const MAX_BODY_BYTES = 4 * 1024 * 1024;

/** Why a body was refused, as the MCP endpoint answers it: HTTP status + JSON-RPC code. */
export interface BodyRefusal {
  readonly status: 400 | 413;
  readonly rpcCode: number;
  readonly message: string;
}

export type JsonBody =
  { readonly ok: true; readonly value: unknown } | ({ readonly ok: false } & BodyRefusal);

const PARSE_ERROR = -32700;
const INVALID_REQUEST = -32600;

function refused(status: 400 | 413, rpcCode: number, message: string): JsonBody {
  return { ok: false, status, rpcCode, message };
}

const tooLarge = (): JsonBody =>
  refused(
    413,
    INVALID_REQUEST,
    `Message too large: Coffer accepts at most ${MAX_BODY_BYTES / 1024 / 1024} MiB per MCP message (${MAX_BODY_BYTES} bytes); pass large content by reference (a file path or URI) instead`,
  );

/** How much of a refused body is read and dropped so its 413 arrives; past it, we stop. */
const DRAIN_LIMIT_BYTES = 64 * 1024 * 1024;

/**
 * Refuses an oversized body only once the client has finished sending it: closing a
 * socket with upload data still arriving makes the kernel reset the connection, and a
 * reset can wipe the 413 from the client's receive buffer before it is read (seen in
 * CI as a client that never got an answer). A client that keeps sending past
 * DRAIN_LIMIT_BYTES gets the 413 at once and may lose it: it is not a client we serve.
 */
function drainThenRefuse(req: IncomingMessage, alreadyRead: number): Promise<JsonBody> {
  return new Promise((resolve) => {
    let drained = alreadyRead;
    const finish = (): void => {
      req.off('data', onData);
      resolve(tooLarge());
    };
    const onData = (chunk: Buffer): void => {
      drained += chunk.length;
      if (drained > DRAIN_LIMIT_BYTES) finish();
    };
    req.on('data', onData);
    req.once('end', finish);
    req.once('close', finish);
    req.resume();
  });
}

/**
 * Reads a POST body of the MCP endpoint as JSON, at most MAX_BODY_BYTES (a declared
 * Content-Length over it is refused before a byte is read). Never rejects for the
 * client's mistakes: the refusal says which status and JSON-RPC code to answer.
 * Rejects only if the connection itself fails.
 */
export function readMcpJsonBody(req: IncomingMessage): Promise<JsonBody> {
  const declared = Number(req.headers['content-length'] ?? '0');
  if (declared > MAX_BODY_BYTES) return drainThenRefuse(req, 0);
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const onData = (chunk: Buffer): void => {
      size += chunk.length;
      if (size > MAX_BODY_BYTES) {
        // Stop buffering; answer once the rest has been read and dropped.
        req.off('data', onData);
        resolve(drainThenRefuse(req, size));
        return;
      }
      chunks.push(chunk);
    };
    req.on('data', onData);
    req.on('error', reject);
    req.on('end', () => {
      if (size > MAX_BODY_BYTES) return;
      resolve(interpret(Buffer.concat(chunks)));
    });
  });
}

function interpret(bytes: Buffer): JsonBody {
  const decoded = decodeJsonText(bytes);
  if (!decoded.ok) {
    const code =
      decoded.problem === 'syntax' || decoded.problem === 'encoding'
        ? PARSE_ERROR
        : INVALID_REQUEST;
    return refused(
      400,
      code,
      `${code === PARSE_ERROR ? 'Parse error' : 'Invalid Request'}: ${decoded.message}`,
    );
  }
  // JSON-RPC 2.0: an empty batch is an Invalid Request, not "nothing to do".
  if (Array.isArray(decoded.value) && decoded.value.length === 0)
    return refused(400, INVALID_REQUEST, 'Invalid Request: an empty batch');
  return { ok: true, value: decoded.value };
}
