import type { ServerDefinition } from './server-definition.js';

type Remote = Pick<ServerDefinition, 'name' | 'transport' | 'url' | 'secret_headers'>;

function originOf(definition: Remote): string | undefined {
  if (definition.transport === 'stdio' || definition.url === undefined) return undefined;
  try {
    return new URL(definition.url).origin;
  } catch {
    return undefined;
  }
}

/**
 * Said when a change of URL sends a server's stored secret headers to another origin. An
 * OAuth sign-in is bound to the URL it was made for and is not presented to a new one
 * (docs/OAUTH.md); a key in the keychain is the user's to move, and goes with the server,
 * so a URL changed by mistake (or by someone else's config file) would hand it to whoever
 * is there. Undefined when nothing secret changes hands.
 */
export function movedSecretsNote(before: Remote, after: Remote): string | undefined {
  const from = originOf(before);
  const to = originOf(after);
  if (from === undefined || to === undefined || from === to) return undefined;
  const kept = new Set(before.secret_headers.map((name) => name.toLowerCase()));
  const moved = after.secret_headers.filter((name) => kept.has(name.toLowerCase()));
  if (moved.length === 0) return undefined;
  const unset = moved.map((name) => `--unset-header ${name}`).join(' ');
  return `its secret headers (${moved.join(', ')}) now go to ${to}, not ${from}: if that is not the same service, remove them (coffer mcp edit ${after.name} ${unset})`;
}
