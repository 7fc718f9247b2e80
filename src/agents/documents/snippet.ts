import { isObject } from '../entry-fields.js';
import { readIfExists } from '../safe-files.js';
import type { ConfigLocation } from '../types.js';
import type { ConfigDocument } from './config-document.js';
import { configFromText, malformedError, requireConfig } from './load-document.js';

/** What a server entry names in some agent's format: how it is started or reached. */
const LAUNCH_FIELDS = ['command', 'url', 'serverUrl', 'httpUrl'];

const isServerEntry = (entry: unknown): boolean =>
  isObject(entry) && LAUNCH_FIELDS.some((field) => field in entry);

/** `{"github": {"command": …}}`: servers given without the key around them. */
function isServerMap(map: Readonly<Record<string, unknown>>): boolean {
  const entries = Object.values(map);
  return entries.length > 0 && entries.every(isServerEntry);
}

/**
 * The text as a document, with the braces a README left out when it gave only the entries
 * (`"github": { … },`). The opening brace goes on a line of its own, so that an error in
 * the braced copy is one line down from where it is in the user's text, and is reported
 * there.
 */
function withBraces(location: ConfigLocation, text: string): ConfigDocument {
  // Entries without braces start with their quoted name (or a comment before it); any
  // other text (`null`, a list, a whole object) is read as it is, and refused as itself.
  const bare = /^["/]/.test(text.trim());
  if (location.format === 'toml' || !bare) return requireConfig(location, text).document;
  const body = text.replace(/,\s*$/, '');
  const braced = configFromText(location, `{\n${body}\n}`);
  if (braced.state !== 'malformed') return braced.document;
  const { line, column, message } = braced.problem;
  const lines = body.split('\n').length;
  const within = Math.min(Math.max(line - 1, 1), lines);
  throw malformedError(location.path, { line: within, column, message });
}

/**
 * The servers of a snippet in an agent's format, as a server's README gives it: a whole
 * config, the entries alone, or the entries without their braces. Only for text in hand
 * (pasted, piped, or a file named with `--file`), never for an agent's own file, whose
 * other keys are its settings, not servers. Undefined: no server in it.
 */
export function snippetServers(
  location: ConfigLocation,
  text: string,
): Readonly<Record<string, unknown>> | undefined {
  const document = withBraces(location, text);
  const servers = document.servers(location.serversKey);
  if (servers !== undefined) return servers;
  const root = document.servers([]);
  return root !== undefined && isServerMap(root) ? root : undefined;
}

export interface Snippet {
  /** False: no file at the path given. */
  readonly exists: boolean;
  readonly servers: Readonly<Record<string, unknown>> | undefined;
}

/** snippetServers of text in hand, or without it of the file at `location.path`. */
export function readSnippet(
  location: ConfigLocation,
  text: string | undefined = readIfExists(location.path),
): Snippet {
  if (text === undefined) return { exists: false, servers: undefined };
  return { exists: true, servers: snippetServers(location, text) };
}
