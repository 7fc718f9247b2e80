import { ownName } from '../../domain/naming.js';

/**
 * A tool, prompt or resource named on the command line as agents see it, read as the
 * server's own name (the one preferences, policies and reviews are keyed by), with the
 * line that tells the user so when the two differ.
 */
export function ownNameOf(
  server: string,
  given: string,
  kind: 'name' | 'uri',
): { readonly key: string; readonly note?: string } {
  const key = ownName(server, given, kind);
  if (key === given) return { key };
  return { key, note: `  "${given}" is what agents see; "${server}" calls it "${key}"\n` };
}
