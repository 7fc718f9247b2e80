import type { ServerDefinition } from './server-definition.js';

/** What decides which process or URL a server is, and what it is given: not its name or switches. */
export type LaunchFields = Pick<
  ServerDefinition,
  | 'transport'
  | 'command'
  | 'cwd'
  | 'url'
  | 'args'
  | 'env'
  | 'headers'
  | 'secret_env'
  | 'secret_headers'
>;

/** A server Coffer has, as far as telling a twin from it needs. */
export type KnownServer = LaunchFields & { readonly name: string; readonly enabled?: boolean };

/**
 * True when two definitions start the same server the same way: same transport, command,
 * arguments (in order), directory, URL, plain values, and the same secret names. Secret
 * values are not compared (Coffer's are in the keychain, out of reach here). Used to see
 * that an agent's entry is a server Coffer already has, as when several agents list one
 * server and are imported in turn.
 */
export function sameLaunch(a: LaunchFields, b: LaunchFields): boolean {
  return (
    a.transport === b.transport &&
    a.command === b.command &&
    a.cwd === b.cwd &&
    a.url === b.url &&
    sameList(a.args, b.args) &&
    sameMap(a.env, b.env) &&
    sameMap(a.headers, b.headers) &&
    sameSet(a.secret_env, b.secret_env) &&
    sameSet(a.secret_headers, b.secret_headers)
  );
}

function sameList(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((value, index) => value === b[index]);
}

function sameSet(a: readonly string[], b: readonly string[]): boolean {
  return sameList([...a].sort(), [...b].sort());
}

function sameMap(a: Readonly<Record<string, string>>, b: Readonly<Record<string, string>>) {
  const keys = Object.keys(a);
  return keys.length === Object.keys(b).length && keys.every((key) => b[key] === a[key]);
}
