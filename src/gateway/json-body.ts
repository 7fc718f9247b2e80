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
  refused(413, INVALID_REQUEST, `Request body over ${MAX_BODY_BYTES} bytes`);

/**
 * Reads a POST body of the MCP endpoint as JSON, at most MAX_BODY_BYTES (a declared
 * Content-Length over it is refused before a byte is read). Never rejects for the
 * client's mistakes: the refusal says which status and JSON-RPC code to answer.
 * Rejects only if the connection itself fails.
 */
export function readMcpJsonBody(req: IncomingMessage): Promise<JsonBody> {
  const declared = Number(req.headers['content-length'] ?? '0');
  if (declared > MAX_BODY_BYTES) {
    req.resume(); // drain, so the 413 can still be read by the client
    return Promise.resolve(tooLarge());
  }
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const onData = (chunk: Buffer): void => {
      size += chunk.length;
      if (size > MAX_BODY_BYTES) {
        // Stop buffering but drain the rest, so the 413 can still be sent.
        req.off('data', onData);
        req.resume();
        resolve(tooLarge());
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
