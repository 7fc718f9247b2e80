import type { IncomingMessage } from 'node:http';
import { isObject } from './protocol-eras.js';

/** The Streamable HTTP headers a 2026-07-28 request mirrors its body in. */
export interface StandardHeaders {
  readonly protocolVersion: string | undefined;
  readonly method: string | undefined;
  readonly name: string | undefined;
}

/** The body field `Mcp-Name` mirrors, per method (the spec's "Required For" column). */
const NAME_SOURCE: Readonly<Record<string, string>> = {
  'tools/call': 'name',
  'prompts/get': 'name',
  'resources/read': 'uri',
  'tasks/get': 'taskId',
  'tasks/update': 'taskId',
  'tasks/cancel': 'taskId',
};

export function standardHeadersOf(req: IncomingMessage): StandardHeaders {
  return {
    protocolVersion: header(req, 'mcp-protocol-version'),
    method: header(req, 'mcp-method'),
    name: header(req, 'mcp-name'),
  };
}

/**
 * Why the headers of a modern request disagree with its body (answered -32020), or
 * undefined. `MCP-Protocol-Version` and `Mcp-Method` are required on every request,
 * `Mcp-Name` on the methods that name a tool, prompt, resource or task.
 */
export function headerMismatch(
  headers: StandardHeaders,
  method: string,
  version: string,
  params: unknown,
): string | undefined {
  if (headers.protocolVersion === undefined)
    return `the body envelope names protocol version ${version} but the required MCP-Protocol-Version header is absent`;
  if (headers.protocolVersion !== version)
    return `the body envelope names protocol version ${version} but the MCP-Protocol-Version header names ${headers.protocolVersion}`;
  if (headers.method === undefined)
    return `the body names method ${method} but the required Mcp-Method header is absent`;
  if (headers.method !== method)
    return `the body names method ${method} but the Mcp-Method header names ${headers.method}`;
  return nameMismatch(headers.name, method, params);
}

function nameMismatch(
  header: string | undefined,
  method: string,
  params: unknown,
): string | undefined {
  const field = Object.hasOwn(NAME_SOURCE, method) ? NAME_SOURCE[method] : undefined;
  if (field === undefined) return undefined;
  const value = isObject(params) ? params[field] : undefined;
  if (typeof value !== 'string') return undefined;
  if (header === undefined)
    return `the body carries params.${field}="${value}" but the required Mcp-Name header is absent`;
  const decoded = decodeSentinel(header);
  if (decoded === undefined) return 'the Mcp-Name header carries an invalid Base64 sentinel value';
  if (decoded !== value)
    return `the body carries params.${field}="${value}" but the Mcp-Name header names "${decoded}"`;
  return undefined;
}

/** Header values that are not plain ASCII travel as `=?base64?<utf-8 bytes>?=`. */
function decodeSentinel(value: string): string | undefined {
  const match = /^=\?base64\?(.*)\?=$/i.exec(value);
  if (match === null) return value;
  const encoded = match[1]!;
  if (!/^[A-Za-z0-9+/]*={0,2}$/.test(encoded) || encoded.length % 4 !== 0) return undefined;
  return Buffer.from(encoded, 'base64').toString('utf8');
}

/** One header's value, trimmed of optional whitespace; a repeated header counts as its first. */
function header(req: IncomingMessage, name: string): string | undefined {
  const value = req.headers[name];
  const first = Array.isArray(value) ? value[0] : value;
  return first?.trim();
}
