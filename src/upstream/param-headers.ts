/**
 * `Mcp-Param-*` headers to remote 2026-07-28 upstreams (Streamable HTTP "Schema
 * Extension"): a tool may mark properties of its `inputSchema` with `x-mcp-header: <Name>`,
 * and a client calling it over HTTP sends each such argument again as header
 * `Mcp-Param-<Name>`, which the server checks against the body (-32020 when missing or
 * different). Coffer is that client: it learns the declarations from the tools/list answers
 * on the connection (one table per connection) and adds the headers to each call. The rules
 * (which declarations are valid, how values are encoded) are src/domain/param-header-rules.ts;
 * a tool whose declarations are invalid is excluded from what Coffer lists
 * (src/gateway/header-exclusions.ts), so it gets no headers here.
 */
import {
  paramHeadersFor,
  scanHeaderDeclarations,
  type ParamHeaderDeclaration,
} from '../domain/param-header-rules.js';
import { isObject } from './jsonrpc-envelope.js';

/** One connection's tools and their declarations, as its latest tools/list pages said. */
export class ParamHeaderTable {
  private readonly byTool = new Map<string, readonly ParamHeaderDeclaration[]>();

  /** A tools/list result passed on the connection: remember what its valid tools declare. */
  learn(result: unknown): void {
    const tools = isObject(result) ? result['tools'] : undefined;
    if (!Array.isArray(tools)) return;
    for (const tool of tools) {
      if (!isObject(tool) || typeof tool['name'] !== 'string') continue;
      const scan = scanHeaderDeclarations(tool['inputSchema']);
      if (scan.valid && scan.declarations.length > 0)
        this.byTool.set(tool['name'], scan.declarations);
      else this.byTool.delete(tool['name']);
    }
  }

  /** The `Mcp-Param-*` headers of a call to `tool` with `args` (lower-case names). */
  headersFor(tool: string, args: unknown): Record<string, string> {
    const headers = paramHeadersFor(this.byTool.get(tool) ?? [], args);
    return Object.fromEntries(
      Object.entries(headers).map(([name, value]) => [name.toLowerCase(), value]),
    );
  }
}
