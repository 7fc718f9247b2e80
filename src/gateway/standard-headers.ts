import type { IncomingMessage } from 'node:http';
import { mcpNameField } from '../domain/mcp-envelope.js';
import {
  decodeHeaderValue,
  encodeHeaderValue,
  rawHeaderProblem,
  rawHeaderText,
} from '../domain/param-header-rules.js';
import { isObject } from './protocol-eras.js';

/** The Streamable HTTP headers a 2026-07-28 request mirrors its body in. */
export interface StandardHeaders {
  readonly protocolVersion: string | undefined;
  readonly method: string | undefined;
  readonly name: string | undefined;
}

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
  const field = mcpNameField(method);
  if (field === undefined) return undefined;
  const value = isObject(params) ? params[field] : undefined;
  if (typeof value !== 'string') return undefined;
  if (header === undefined)
    return `the body carries params.${field}="${value}" but the required Mcp-Name header is absent`;
  const raw = rawHeaderText(header);
  if (raw !== undefined)
    return rawHeaderProblem('Mcp-Name', raw, `Mcp-Name: ${encodeHeaderValue(value)}`);
  const decoded = decodeHeaderValue(header);
  if (decoded === undefined) return 'the Mcp-Name header carries an invalid Base64 sentinel value';
  if (decoded !== value)
    return `the body carries params.${field}="${value}" but the Mcp-Name header names "${decoded}"`;
  return undefined;
}

/** The request's `Mcp-Param-<name>` headers, read by the name a tool declares (any case). */
export function paramHeadersOf(req: IncomingMessage): (name: string) => string | undefined {
  return (name) => header(req, `mcp-param-${name.toLowerCase()}`);
}

/** One header's value, trimmed of optional whitespace; a repeated header counts as its first. */
function header(req: IncomingMessage, name: string): string | undefined {
  const value = req.headers[name];
  const first = Array.isArray(value) ? value[0] : value;
  return first?.trim();
}
