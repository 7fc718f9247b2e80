/**
 * The rules of MCP 2026-07-28's header mirroring (SEP-2243) that both sides of Coffer
 * apply: how a value travels as header text (`=?base64?<utf-8 bytes>?=` when it is no
 * plain header text), and the Streamable HTTP "Schema Extension": a tool marks properties
 * of its `inputSchema` with `x-mcp-header: <Name>`, a client sends each such argument again
 * as `Mcp-Param-<Name>`, and the server refuses (-32020) a call whose headers disagree.
 * Coffer is that client for its remote 2026-07-28 upstreams (src/upstream/param-headers.ts)
 * and that server on its own HTTP endpoints (src/gateway/standard-headers.ts). The rules
 * and their wording follow the official SDK v2 (`scanXMcpHeaderDeclarations`,
 * `validateMcpParamHeaders`).
 */

export const PARAM_HEADER_PREFIX = 'Mcp-Param-';

/** One property a tool mirrors: where it sits in the arguments, and its header's name. */
export interface ParamHeaderDeclaration {
  readonly path: readonly string[];
  readonly header: string;
  readonly type: string | undefined;
}

/**
 * A tool's declarations, or why they are invalid (a Streamable HTTP client must then
 * exclude the tool). The declarations of an invalid scan are there when the only fault is
 * a `number` property: a server still checks those headers, as the SDK's does.
 */
export type DeclarationScan =
  | { readonly valid: true; readonly declarations: readonly ParamHeaderDeclaration[] }
  | {
      readonly valid: false;
      readonly reason: string;
      readonly declarations?: readonly ParamHeaderDeclaration[];
    };

const KEY = 'x-mcp-header';
/** RFC 9110 `token`: no space, colon, control character or non-ASCII letter. */
const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;
const PERMITTED_TYPES = new Set(['string', 'integer', 'boolean']);
/** Subschemas no chain of `properties` reaches: a declaration there is invalid. */
const UNREACHABLE = (
  'items prefixItems contains additionalProperties unevaluatedProperties unevaluatedItems ' +
  'propertyNames patternProperties dependentSchemas oneOf anyOf allOf not if then else ' +
  '$defs definitions'
).split(' ');
const NAMED_SUBSCHEMAS = new Set(['patternProperties', 'dependentSchemas', '$defs', 'definitions']);

type Schema = Record<string, unknown>;

function isSchema(value: unknown): value is Schema {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function pathName(path: readonly string[]): string {
  return path.length === 0 ? '<root>' : path.join('.');
}

/** What a scan has found so far. */
interface ScanState {
  readonly declarations: ParamHeaderDeclaration[];
  /** Lower-case name to the name as first declared. */
  readonly seen: Map<string, string>;
  numberFault?: string;
}

/** Every `x-mcp-header` of `inputSchema`, checked against each constraint of the spec. */
export function scanHeaderDeclarations(inputSchema: unknown): DeclarationScan {
  const state: ScanState = { declarations: [], seen: new Map() };
  const fault = visit(inputSchema, [], true, state);
  const { declarations, numberFault } = state;
  if (fault !== undefined) return { valid: false, reason: numberFault ?? fault };
  if (numberFault !== undefined) return { valid: false, reason: numberFault, declarations };
  return { valid: true, declarations };
}

/** The first fault under `node`, every declaration on the way noted in `state`. */
function visit(
  node: unknown,
  path: string[],
  reachable: boolean,
  state: ScanState,
): string | undefined {
  if (!isSchema(node)) return undefined;
  const fault = KEY in node ? declare(node, path, reachable, state) : undefined;
  if (fault !== undefined) return fault;
  const properties = node['properties'];
  if (isSchema(properties)) {
    for (const [key, child] of Object.entries(properties)) {
      const inner = visit(child, [...path, key], reachable, state);
      if (inner !== undefined) return inner;
    }
  }
  for (const keyword of UNREACHABLE) {
    for (const branch of subschemas(node[keyword], keyword)) {
      const inner = visit(branch, [...path, `<${keyword}>`], false, state);
      if (inner !== undefined) return inner;
    }
  }
  return undefined;
}

/** One property's declaration: noted when valid, else why not (a `number` one is noted too). */
function declare(
  schema: Schema,
  path: string[],
  reachable: boolean,
  state: ScanState,
): string | undefined {
  if (!reachable || path.length === 0)
    return `${pathName(path)}: x-mcp-header is only permitted on properties statically reachable via a chain of 'properties' keys (not under items, additionalProperties, oneOf/anyOf/allOf/not, if/then/else, or $ref)`;
  const header = schema[KEY];
  if (typeof header !== 'string' || header.length === 0)
    return `${pathName(path)}: x-mcp-header MUST be a non-empty string`;
  if (!TOKEN.test(header))
    return `${pathName(path)}: x-mcp-header '${header}' is not a valid RFC 9110 token (no spaces, control characters or HTTP delimiters)`;
  const type = typeof schema['type'] === 'string' ? schema['type'] : undefined;
  if (type === undefined || !PERMITTED_TYPES.has(type)) {
    const fault = `${pathName(path)}: x-mcp-header is only permitted on primitive-typed properties (string, integer, boolean); got ${type ?? '<none>'}`;
    if (type !== 'number') return fault;
    state.numberFault ??= fault;
  }
  const prior = state.seen.get(header.toLowerCase());
  if (prior !== undefined)
    return `x-mcp-header '${header}' is not case-insensitively unique (also declared as '${prior}')`;
  state.seen.set(header.toLowerCase(), header);
  state.declarations.push({ path, header, type });
  return undefined;
}

function subschemas(value: unknown, keyword: string): unknown[] {
  if (value === undefined) return [];
  if (Array.isArray(value)) return value;
  return isSchema(value) && NAMED_SUBSCHEMAS.has(keyword) ? Object.values(value) : [value];
}

/** An argument as header text: strings, booleans, finite (safe-integer) numbers; else none. */
export function paramHeaderText(value: unknown): string | undefined {
  if (typeof value === 'string') return value;
  if (typeof value === 'boolean') return value ? 'true' : 'false';
  if (typeof value !== 'number' || !Number.isFinite(value)) return undefined;
  return Number.isInteger(value) && !Number.isSafeInteger(value) ? undefined : String(value);
}

const PREFIX = '=?base64?';
const SUFFIX = '?=';
const CANONICAL_BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;
const CANONICAL_DECIMAL = /^-?\d+(\.\d+)?$/;

function hasSentinel(value: string): boolean {
  return value.startsWith(PREFIX) && value.endsWith(SUFFIX) && value.length >= 11;
}

/** A value as header text: as is when it is plain visible ASCII, else base64 of its UTF-8. */
export function encodeHeaderValue(value: string): string {
  const plain =
    value.length > 0 &&
    value === value.trim() &&
    !hasSentinel(value) &&
    /^[\x20-\x7e\t]*$/.test(value);
  if (plain) return value;
  return `${PREFIX}${Buffer.from(value, 'utf8').toString('base64')}${SUFFIX}`;
}

/**
 * What a header value says: the UTF-8 inside a `=?base64?…?=` sentinel, or the value
 * itself (a value missing the prefix or the suffix is literal text). undefined when the
 * sentinel holds no canonical Base64 or no valid UTF-8: the server must refuse that.
 */
export function decodeHeaderValue(value: string): string | undefined {
  if (!hasSentinel(value)) return value;
  const encoded = value.slice(PREFIX.length, value.length - SUFFIX.length);
  if (!CANONICAL_BASE64.test(encoded)) return undefined;
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(Buffer.from(encoded, 'base64'));
  } catch {
    return undefined;
  }
}

/**
 * A header value that is no header text (RFC 9110 as MCP reads it: visible ASCII, space,
 * tab), as its sender meant it: Node reads a header's bytes as latin1, so the UTF-8 a
 * client put there raw reads "ZÃ¼rich"; its bytes read as UTF-8 when they are. undefined
 * for plain header text. The spec has such a value refused, never compared (-32020).
 */
export function rawHeaderText(value: string): string | undefined {
  if (/^[\t\x20-\x7e]*$/.test(value)) return undefined;
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(Buffer.from(value, 'latin1'));
  } catch {
    return value;
  }
}

/** Why a header carrying `raw` unencoded is refused, and what to send: `send` (`Name: value`). */
export function rawHeaderProblem(header: string, raw: string, send: string): string {
  return `the ${header} header carries ${JSON.stringify(raw)} as raw non-ASCII text; send non-ASCII values base64-encoded as =?base64?…?=: send ${send}`;
}

function valueAt(root: unknown, path: readonly string[]): unknown {
  let node = root;
  for (const key of path) node = isSchema(node) ? node[key] : undefined;
  return node;
}

/** The `Mcp-Param-*` headers a client sends with a call of `args` (names as declared). */
export function paramHeadersFor(
  declarations: readonly ParamHeaderDeclaration[],
  args: unknown,
): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const { path, header } of declarations) {
    const text = paramHeaderText(valueAt(args, path));
    if (text !== undefined) headers[`${PARAM_HEADER_PREFIX}${header}`] = encodeHeaderValue(text);
  }
  return headers;
}

/** Why a call's `Mcp-Param-*` headers disagree with its arguments (answered -32020). */
export interface ParamHeaderMismatch {
  readonly header: string;
  readonly body: string;
}

/**
 * The first declaration whose header is missing while the arguments carry its value,
 * carries a broken Base64 sentinel, or says something else; undefined when all agree. An
 * argument that is absent, null or no primitive expects no header (one sent is ignored).
 * `headerOf` reads a request header by its name as declared (case-insensitively).
 */
export function paramHeaderMismatch(
  declarations: readonly ParamHeaderDeclaration[],
  args: unknown,
  headerOf: (name: string) => string | undefined,
): ParamHeaderMismatch | undefined {
  for (const { path, header: name, type } of declarations) {
    const header = `${PARAM_HEADER_PREFIX}${name}`;
    const raw = valueAt(args, path);
    const text = paramHeaderText(raw);
    if (raw === undefined || raw === null || text === undefined) continue;
    const carried = `${pathName(path)}=${JSON.stringify(raw)}`;
    const encoded = `${header}: ${encodeHeaderValue(text)}`;
    const send = `send ${encoded}`;
    const value = headerOf(name);
    if (value === undefined)
      return {
        header,
        body: `the body carries ${carried} but the ${header} header is absent; ${send}`,
      };
    const unencoded = rawHeaderText(value);
    if (unencoded !== undefined)
      return { header, body: rawHeaderProblem(header, unencoded, encoded) };
    const decoded = decodeHeaderValue(value);
    if (decoded === undefined)
      return {
        header,
        body: `the ${header} header carries an invalid Base64 sentinel value; ${send}`,
      };
    const numeric =
      (type === 'integer' || type === 'number') &&
      typeof raw === 'number' &&
      CANONICAL_DECIMAL.test(decoded);
    if (numeric ? Number(decoded) !== raw : decoded !== text)
      return {
        header,
        body: `the ${header} header decodes to ${JSON.stringify(decoded)} but the body carries ${carried}; ${send}`,
      };
  }
  return undefined;
}
