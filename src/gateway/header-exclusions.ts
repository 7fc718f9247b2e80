import { CofferError } from '../domain/errors.js';
import { scanHeaderDeclarations } from '../domain/param-header-rules.js';
import type { JsonObject, UpstreamConnection } from '../domain/ports.js';
import type { ServerRecord } from '../domain/server-definition.js';
import { isModernVersion } from './protocol-eras.js';

const NONE: ReadonlyMap<string, string> = new Map();

/**
 * The tools of a list Coffer must exclude, each with why: MCP 2026-07-28 says a Streamable
 * HTTP client MUST neither list nor call a tool whose `x-mcp-header` declarations break the
 * rules (src/domain/param-header-rules.ts), since it cannot send their headers. That is
 * Coffer's connection to a remote 2026-07-28 upstream; over stdio or 2025 no header is sent.
 */
export function invalidHeaderTools(
  server: ServerRecord,
  connection: UpstreamConnection,
  tools: readonly JsonObject[],
  keyOf: (tool: JsonObject) => string | undefined,
): ReadonlyMap<string, string> {
  if (server.transport !== 'http' || !isModernVersion(connection.protocolVersion ?? ''))
    return NONE;
  const invalid = new Map<string, string>();
  for (const tool of tools) {
    const scan = scanHeaderDeclarations(tool['inputSchema']);
    if (!scan.valid) invalid.set(keyOf(tool) ?? '', scan.reason);
  }
  return invalid.size === 0 ? NONE : invalid;
}

/** The refusal of a call to such a tool: the fix is the server's, not the user's. */
export function invalidHeaderTool(server: string, key: string, reason: string): CofferError {
  return new CofferError(
    'CAPABILITY_NOT_FOUND',
    `Tool "${key}" of ${server} is not offered: it declares an invalid x-mcp-header (${reason}), and MCP 2026-07-28 forbids calling such a tool over HTTP`,
    {
      hint: `ask the author of ${server} to fix the tool's inputSchema`,
      data: { server },
    },
  );
}
