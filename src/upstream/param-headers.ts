/**
 * `Mcp-Param-*` headers (MCP 2026-07-28, Streamable HTTP "Schema Extension"): a tool may
 * mark properties of its `inputSchema` with `x-mcp-header: <Name>`, and a client calling
 * it over HTTP sends each such argument again as header `Mcp-Param-<Name>`, which the
 * server checks against the body (-32020 when missing or different). Coffer is that client
 * for its remote 2026-07-28 upstreams: it learns the declarations from the tools/list
 * answers on the connection (one table per connection) and adds the headers to each call.
 * The rules follow the official SDK v2 client: only properties reached through a chain of
 * `properties` keys; an absent or null value, or one that is no primitive, sends nothing.
 */
import { encodeHeaderValue } from '../domain/mcp-envelope.js';
import { isObject } from './jsonrpc-envelope.js';

interface Declaration {
  readonly path: readonly string[];
  readonly header: string;
}

/** RFC 9110 `token`: what a header name may be. */
const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;

/** The `x-mcp-header` declarations reachable through `properties`, in schema order. */
export function headerDeclarations(inputSchema: unknown): Declaration[] {
  const found: Declaration[] = [];
  const visit = (node: unknown, path: string[]): void => {
    if (!isObject(node)) return;
    const header = node['x-mcp-header'];
    if (path.length > 0 && typeof header === 'string' && TOKEN.test(header))
      found.push({ path, header });
    const properties = node['properties'];
    if (!isObject(properties)) return;
    for (const [key, child] of Object.entries(properties)) visit(child, [...path, key]);
  };
  visit(inputSchema, []);
  return found;
}

function valueAt(root: unknown, path: readonly string[]): unknown {
  let node = root;
  for (const key of path) node = isObject(node) ? node[key] : undefined;
  return node;
}

function asHeaderText(value: unknown): string | undefined {
  if (typeof value === 'string') return value;
  if (typeof value === 'boolean') return value ? 'true' : 'false';
  if (typeof value === 'number' && Number.isFinite(value)) {
    return Number.isInteger(value) && !Number.isSafeInteger(value) ? undefined : String(value);
  }
  return undefined;
}

/** One connection's tools and their declarations, as its latest tools/list pages said. */
export class ParamHeaderTable {
  private readonly byTool = new Map<string, Declaration[]>();

  /** A tools/list result passed on the connection: remember what its tools declare. */
  learn(result: unknown): void {
    const tools = isObject(result) ? result['tools'] : undefined;
    if (!Array.isArray(tools)) return;
    for (const tool of tools) {
      if (!isObject(tool) || typeof tool['name'] !== 'string') continue;
      const declared = headerDeclarations(tool['inputSchema']);
      if (declared.length > 0) this.byTool.set(tool['name'], declared);
      else this.byTool.delete(tool['name']);
    }
  }

  /** The `Mcp-Param-*` headers of a call to `tool` with `args` (lower-case names). */
  headersFor(tool: string, args: unknown): Record<string, string> {
    const headers: Record<string, string> = {};
    for (const { path, header } of this.byTool.get(tool) ?? []) {
      const text = asHeaderText(valueAt(args, path));
      if (text !== undefined)
        headers[`mcp-param-${header.toLowerCase()}`] = encodeHeaderValue(text);
    }
    return headers;
  }
}
