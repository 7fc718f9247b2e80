import { secretValue } from './secret-detection.js';
import type { AgentServer } from './types.js';

/**
 * Claude Code's `${VAR:-default}` (its docs, "Environment variable expansion in
 * .mcp.json": in command, args, env, url and headers): VAR where the agent has it set,
 * else the default. Coffer cannot see the agent's environment, and passed as written the
 * text itself would reach the server; an import reads it as its default, the agent's
 * value while VAR is unset, and says so. An empty default of a secret is no value: it
 * stays as written, and the import names the secret for the user to set, as for `${VAR}`.
 * A nested default (`${A:-${B}}`) stays as written too. Each one read is recorded as not
 * carried over (AgentServer.dropped), as a key the import left behind is.
 */
const WITH_DEFAULT = /\$\{([A-Za-z_][A-Za-z0-9_]*):-([^${}]*)\}/g;

interface Reading {
  /** How each placeholder read is shown in the note; secret defaults are masked. */
  readonly read: Map<string, string>;
  readonly expand: (text: string, secret: boolean) => string;
}

function reading(): Reading {
  const read = new Map<string, string>();
  return {
    read,
    expand: (text, secret) =>
      text.replace(WITH_DEFAULT, (whole, name: string, fallback: string) => {
        if (secret && fallback.trim() === '') return whole;
        const masked = secret || secretValue(fallback);
        const shown = masked ? `\${${name}:-***} as its default` : `${whole} as "${fallback}"`;
        read.set(whole, shown);
        return fallback;
      }),
  };
}

function readNote(read: ReadonlyMap<string, string>): string {
  const list = [...read.values()].join(', ');
  const names = [...new Set([...read.keys()].map((whole) => whole.slice(2, whole.indexOf(':'))))];
  const only = names.length === 1 ? names[0] : undefined;
  const unset =
    only === undefined
      ? "the agent's values while those variables are unset; where it has them set"
      : `the agent's value while ${only} is unset; where it has ${only} set`;
  return `read ${list}: ${unset}, change the server in Coffer (coffer mcp edit)`;
}

export function expandDefaults(
  server: AgentServer,
  isSecretName: (name: string) => boolean,
): AgentServer {
  const { read, expand } = reading();
  const map = (values: Readonly<Record<string, string>>) =>
    Object.fromEntries(
      Object.entries(values).map(([key, value]) => [key, expand(value, isSecretName(key))]),
    );
  const expanded: AgentServer = {
    ...server,
    ...(server.command === undefined ? {} : { command: expand(server.command, false) }),
    args: server.args.map((arg) => expand(arg, false)),
    env: map(server.env),
    ...(server.url === undefined ? {} : { url: expand(server.url, false) }),
    headers: map(server.headers),
  };
  if (read.size === 0) return server;
  // Recorded as not carried over: where the agent has VAR set, its entry does what the
  // server in Coffer does not, so `install --replace` keeps it and says why.
  const dropped = [...(server.dropped ?? []), ...read.keys()];
  return { ...expanded, notes: [...server.notes, readNote(read)], dropped };
}
