import { createHash } from 'node:crypto';
import { CofferError } from './errors.js';

/**
 * Naming rules of DESIGN.md §3. Server names become prefixes of tool and prompt names
 * (`<server>__<name>`) and hosts of resource URIs (`coffer://<server>/<uri>`, and
 * `ui://<server>/<rest>` for MCP Apps, `skill://<server>/<rest>` for skills), so they must
 * be unambiguous in all of them.
 */
export const NAMESPACE_SEPARATOR = '__';
export const MAX_SERVER_NAME_LENGTH = 32;
/** Claude Desktop refuses tool names longer than this. */
export const MAX_EXPOSED_NAME_LENGTH = 64;
export const RESOURCE_SCHEME = 'coffer://';
/**
 * MCP Apps (extension io.modelcontextprotocol/ui): hosts render only `ui://` resources,
 * so an app's URI keeps its scheme and gets the server as its first segment instead.
 * Matched exactly as the extension writes it: any other spelling is an ordinary URI.
 */
export const APP_SCHEME = 'ui://';
/**
 * The Skills extension (io.modelcontextprotocol/skills) names a skill's files `skill://`
 * by convention, and a host may key skills by it: kept the same way as an app's.
 */
export const SKILL_SCHEME = 'skill://';
/** Schemes whose URIs keep their scheme when exposed, the server as their first segment. */
const KEPT_SCHEMES = [APP_SCHEME, SKILL_SCHEME] as const;

function keptSchemeOf(uri: string): string | undefined {
  return KEPT_SCHEMES.find((scheme) => uri.startsWith(scheme));
}

/** Prefix of Coffer's own tools (`coffer__search_tools`): no upstream may take it. */
export const BUILTIN_SERVER_NAME = 'coffer';

const SERVER_NAME_PATTERN = /^[a-z0-9][a-z0-9_-]*$/;

/** Returns the first rule a server name breaks, or undefined when it is valid. */
export function serverNameProblem(name: string): string | undefined {
  if (name.length === 0) return 'it is empty';
  if (name.length > MAX_SERVER_NAME_LENGTH)
    return `it is ${name.length} characters long; the limit is ${MAX_SERVER_NAME_LENGTH}`;
  if (!SERVER_NAME_PATTERN.test(name))
    return 'it must start with a lowercase letter or digit and contain only a-z, 0-9, "_" and "-"';
  if (name.includes(NAMESPACE_SEPARATOR))
    return 'it must not contain "__" (Coffer uses it to separate server and tool names)';
  if (name.endsWith('_')) return 'it must not end with "_"';
  if (name === BUILTIN_SERVER_NAME)
    return `it is reserved for Coffer's built-in tools (${BUILTIN_SERVER_NAME}__search_tools, …)`;
  return undefined;
}

export function assertServerName(name: string): void {
  const problem = serverNameProblem(name);
  if (problem !== undefined) {
    throw new CofferError('INVALID_SERVER_NAME', `Invalid server name "${name}": ${problem}`, {
      hint: 'use something like "github" or "my-files"',
    });
  }
}

function shortHash(text: string): string {
  return createHash('sha256').update(text).digest('hex').slice(0, 8);
}

/**
 * The name a tool or prompt is shown under. Names too long for clients are cut and
 * given a stable hash of the full name, so two long names never collide by cutting.
 */
export function exposedName(server: string, name: string): string {
  const full = `${server}${NAMESPACE_SEPARATOR}${name}`;
  if (full.length <= MAX_EXPOSED_NAME_LENGTH) return full;
  const suffix = `_${shortHash(full)}`;
  return full.slice(0, MAX_EXPOSED_NAME_LENGTH - suffix.length) + suffix;
}

/**
 * Splits an exposed name at the first separator. Server names never contain "__", so
 * this is exact for names that were not cut; cut names are resolved by the session's
 * own map of what it listed.
 */
export function splitExposedName(exposed: string): { server: string; name: string } | undefined {
  const at = exposed.indexOf(NAMESPACE_SEPARATOR);
  if (at <= 0) return undefined;
  const server = exposed.slice(0, at);
  const name = exposed.slice(at + NAMESPACE_SEPARATOR.length);
  if (name.length === 0 || serverNameProblem(server) !== undefined) return undefined;
  return { server, name };
}

/**
 * The server's own name for one a user copied from an agent, which sees
 * `<server>__<name>` and `coffer://<server>/<uri>`: THIS server's prefix is taken off.
 * Anything else is kept as given: another server's prefix (a name of this server then),
 * and a name cut to 64 characters and hashed, which cannot be undone.
 */
export function ownName(server: string, given: string, kind: 'name' | 'uri'): string {
  if (kind === 'name') {
    const split = splitExposedName(given);
    return split?.server === server ? split.name : given;
  }
  if (!given.startsWith(RESOURCE_SCHEME)) return given;
  const split = splitExposedUri(given);
  return split?.server === server ? split.uri : given;
}

/**
 * `coffer://<server>/<original-uri>`, the original kept byte for byte; an app's
 * `ui://<rest>` becomes `ui://<server>/<rest>`, a skill's `skill://<rest>`
 * `skill://<server>/<rest>`. Every valid server name is a valid URI host (RFC 3986
 * reg-name), so the result is still a URI a host can parse.
 */
export function exposedUri(server: string, uri: string): string {
  const kept = keptSchemeOf(uri);
  if (kept !== undefined) return `${kept}${server}/${uri.slice(kept.length)}`;
  return `${RESOURCE_SCHEME}${server}/${uri}`;
}

/** The inverse of exposedUri; undefined for anything exposedUri cannot have produced. */
export function splitExposedUri(exposed: string): { server: string; uri: string } | undefined {
  const kept = keptSchemeOf(exposed);
  if (kept !== undefined) {
    const parts = splitAuthority(exposed.slice(kept.length));
    // `ui://` alone is a URI too: `ui://<server>/` is its exposed form.
    return parts === undefined ? undefined : { server: parts.server, uri: kept + parts.rest };
  }
  if (!exposed.startsWith(RESOURCE_SCHEME)) return undefined;
  const parts = splitAuthority(exposed.slice(RESOURCE_SCHEME.length));
  // exposedUri never wraps a kept scheme's URI in coffer://: one exposed form per original.
  if (parts === undefined || parts.rest.length === 0 || keptSchemeOf(parts.rest) !== undefined)
    return undefined;
  return { server: parts.server, uri: parts.rest };
}

function splitAuthority(text: string): { server: string; rest: string } | undefined {
  const slash = text.indexOf('/');
  if (slash <= 0) return undefined;
  const server = text.slice(0, slash);
  if (serverNameProblem(server) !== undefined) return undefined;
  return { server, rest: text.slice(slash + 1) };
}
