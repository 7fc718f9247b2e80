import { createHash } from 'node:crypto';
import { CofferError } from './errors.js';

/**
 * Naming rules of DESIGN.md §3. Server names become prefixes of tool and prompt names
 * (`<server>__<name>`) and hosts of resource URIs (`coffer://<server>/<uri>`), so
 * they must be unambiguous in both.
 */
export const NAMESPACE_SEPARATOR = '__';
export const MAX_SERVER_NAME_LENGTH = 32;
/** Claude Desktop refuses tool names longer than this. */
export const MAX_EXPOSED_NAME_LENGTH = 64;
export const RESOURCE_SCHEME = 'coffer://';

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

/** `coffer://<server>/<original-uri>`: the original URI is kept byte for byte. */
export function exposedUri(server: string, uri: string): string {
  return `${RESOURCE_SCHEME}${server}/${uri}`;
}

export function splitExposedUri(exposed: string): { server: string; uri: string } | undefined {
  if (!exposed.startsWith(RESOURCE_SCHEME)) return undefined;
  const rest = exposed.slice(RESOURCE_SCHEME.length);
  const slash = rest.indexOf('/');
  if (slash <= 0) return undefined;
  const server = rest.slice(0, slash);
  const uri = rest.slice(slash + 1);
  if (uri.length === 0 || serverNameProblem(server) !== undefined) return undefined;
  return { server, uri };
}
