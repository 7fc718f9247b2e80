import { basename, sep } from 'node:path';
import type { EntryPlace } from './launch-folder.js';
import type { AgentServer } from './types.js';

/**
 * The `${…}` variables VS Code and Cursor fill in an entry from where it is written
 * (`"args": ["${workspaceFolder}/build/index.js"]`). They name paths, not secrets, so an
 * import reads them as the agent would; the daemon, started from the home folder, could
 * not. `${workspaceFolder}` has a value only in a project's file: in a user file it is
 * whichever folder the agent has open, so it stays as written, as `${env:…}` and
 * `${input:…}` do (docs/AGENTS.md).
 */
export function pathVariables(place: EntryPlace): ReadonlyMap<string, string> {
  const variables = new Map([
    ['userHome', place.homeDir],
    ['pathSeparator', sep],
    ['/', sep],
  ]);
  if (place.folder !== undefined) {
    variables.set('workspaceFolder', place.folder.dir);
    variables.set('workspaceFolderBasename', basename(place.folder.dir));
  }
  return variables;
}

/** The entry with its path variables filled in, and a note naming each one read. */
export function expandPathVariables(
  server: AgentServer,
  variables: ReadonlyMap<string, string>,
): AgentServer {
  const used = new Set<string>();
  const expand = (text: string): string =>
    text.replace(/\$\{([^}]+)\}/g, (whole, name: string) => {
      const value = variables.get(name);
      if (value === undefined) return whole;
      used.add(name);
      return value;
    });
  const expanded: AgentServer = {
    ...server,
    ...(server.command === undefined ? {} : { command: expand(server.command) }),
    args: server.args.map(expand),
    env: Object.fromEntries(Object.entries(server.env).map(([key, value]) => [key, expand(value)])),
    ...(server.cwd === undefined ? {} : { cwd: expand(server.cwd) }),
    ...(server.url === undefined ? {} : { url: expand(server.url) }),
  };
  if (used.size === 0) return server;
  const read = [...used].map((name) => `\${${name}} as ${JSON.stringify(variables.get(name))}`);
  return { ...expanded, notes: [...server.notes, `read ${read.join(', ')}, as the agent would`] };
}
