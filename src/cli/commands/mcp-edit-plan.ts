import type { LaunchFolder } from '../../agents/launch-folder.js';
import { CofferError } from '../../domain/errors.js';
import type { ServerRecord } from '../../domain/server-definition.js';
import type { AddSecretFlags } from './mcp-add-secrets.js';
import { buildDefinition, parseEnvFlags, type AddPlan } from './mcp-input.js';

/**
 * `coffer mcp edit`: the server's definition as it is, with the flags' changes, built by
 * the same rules as `coffer mcp add` (checks, relative paths, secrets given plainly) so
 * an edited server is one `add` could have made. What no flag names stays as it is.
 */

export interface EditFlags extends AddSecretFlags {
  env: string[];
  unsetEnv: string[];
  header: string[];
  unsetHeader: string[];
  cwd?: string;
  /** `--unset-cwd`: the server runs where the daemon starts servers (the home folder). */
  unsetCwd?: boolean;
  url?: string;
  transport?: string;
}

function invalid(message: string, hint: string): CofferError {
  return new CofferError('INVALID_INPUT', message, { hint });
}

/** Refuses an edit that changes nothing, before a daemon is asked or started. */
export function checkSomethingChanges(name: string, command: readonly string[], flags: EditFlags) {
  const lists = [flags.env, flags.unsetEnv, flags.header, flags.unsetHeader];
  const named = [flags.cwd, flags.url, flags.transport].some((value) => value !== undefined);
  if (flags.cwd !== undefined && flags.unsetCwd === true)
    throw invalid(
      'Give --cwd or --unset-cwd, not both',
      `e.g. \`coffer mcp edit ${name} --unset-cwd\``,
    );
  if (flags.url !== undefined && command.length > 0)
    throw invalid(
      'Give either --url or a command, not both',
      `--url makes "${name}" a remote server, a command after -- a local one`,
    );
  const secrets = flags.secretEnv.length + flags.secretHeader.length > 0;
  const unsets = lists.some((list) => list.length > 0) || flags.unsetCwd === true;
  if (command.length > 0 || named || secrets || unsets) return;
  throw invalid(
    `Say what to change of "${name}"`,
    `e.g. \`coffer mcp edit ${name} --env LOG_LEVEL=debug\`, or a new command after --`,
  );
}

/**
 * `entries` without the names `unset` gives (header names caseless, as HTTP has them); a
 * name that is neither among them nor among the secret ones is a typo, refused.
 */
function without(
  server: string,
  kind: 'env' | 'header',
  entries: { readonly plain: Readonly<Record<string, string>>; readonly secret: readonly string[] },
  unset: readonly string[],
): Record<string, string> {
  const same = (a: string, b: string) =>
    kind === 'header' ? a.toLowerCase() === b.toLowerCase() : a === b;
  const kept = { ...entries.plain };
  for (const name of unset) {
    const plain = Object.keys(kept).filter((key) => same(key, name));
    if (plain.length === 0 && !entries.secret.some((key) => same(key, name)))
      throw invalid(
        `"${server}" has no ${kind} ${name} to remove`,
        `see its definition with \`coffer mcp show ${server}\``,
      );
    for (const key of plain) delete kept[key];
  }
  return kept;
}

const NONE = { plain: {}, secret: [] };

function lines(entries: Readonly<Record<string, string>>, separator: string): string[] {
  return Object.entries(entries).map(([key, value]) => `${key}${separator}${value}`);
}

/** A local server after the edit: its env, secret names and folder kept unless changed. */
function localPlan(
  current: ServerRecord,
  command: readonly string[],
  flags: EditFlags,
  folder: LaunchFolder | undefined,
): AddPlan {
  const wasLocal = current.transport === 'stdio';
  without(current.name, 'header', NONE, flags.unsetHeader);
  const own = wasLocal ? { plain: current.env, secret: current.secret_env } : NONE;
  const env = without(current.name, 'env', own, flags.unsetEnv);
  const newCommand = command.length > 0;
  const unsetCwd = flags.unsetCwd === true;
  if (unsetCwd && !newCommand && wasLocal && current.cwd === undefined)
    throw invalid(
      `"${current.name}" has no working directory to remove`,
      `it runs where the daemon starts servers; see \`coffer mcp show ${current.name}\``,
    );
  // Only a new command is read against the folder it is typed in; the old one ran where it ran.
  const cwd = unsetCwd ? undefined : (flags.cwd ?? (newCommand ? undefined : current.cwd));
  const plan = buildDefinition(
    current.name,
    newCommand ? command : [current.command ?? '', ...current.args],
    {
      env: [...lines(env, '='), ...flags.env],
      header: flags.header,
      ...(flags.transport === undefined ? {} : { transport: flags.transport }),
      ...(cwd === undefined ? {} : { cwd }),
      ...(newCommand && flags.cwd === undefined && !unsetCwd && folder !== undefined
        ? { folder }
        : {}),
    },
  );
  // A new command that is not anchored keeps the folder the server ran in.
  const kept = unsetCwd ? undefined : (plan.definition.cwd ?? (wasLocal ? current.cwd : undefined));
  const secrets = wasLocal
    ? current.secret_env.filter((name) => !flags.unsetEnv.includes(name))
    : [];
  const secretEnv = secrets.filter((name) => !(name in plan.definition.env));
  return {
    definition: {
      ...plan.definition,
      ...(kept === undefined ? {} : { cwd: kept }),
      secret_env: secretEnv,
    },
    notes: plan.notes,
  };
}

/** A remote server after the edit: its URL, protocol, headers and secrets kept unless changed. */
function remotePlan(current: ServerRecord, flags: EditFlags): AddPlan {
  const wasLocal = current.transport === 'stdio';
  without(current.name, 'env', NONE, flags.unsetEnv);
  if (flags.unsetCwd === true)
    throw invalid(
      '--unset-cwd applies to local (stdio) servers, not to --url servers',
      `see \`coffer mcp show ${current.name}\``,
    );
  const own = wasLocal ? NONE : { plain: current.headers, secret: current.secret_headers };
  const headers = without(current.name, 'header', own, flags.unsetHeader);
  const transport = flags.transport ?? (wasLocal ? undefined : current.transport);
  const plan = buildDefinition(current.name, [], {
    env: flags.env,
    header: [...lines(headers, ': '), ...flags.header],
    url: flags.url ?? current.url ?? '',
    ...(flags.cwd === undefined ? {} : { cwd: flags.cwd }),
    ...(transport === undefined ? {} : { transport }),
  });
  const gone = [...Object.keys(plan.definition.headers), ...flags.unsetHeader].map((key) =>
    key.toLowerCase(),
  );
  const secrets = wasLocal ? [] : current.secret_headers;
  const secretHeaders = secrets.filter((name) => !gone.includes(name.toLowerCase()));
  return { ...plan, definition: { ...plan.definition, secret_headers: secretHeaders } };
}

/** The edited definition; a `--url` makes a local server remote, a command the reverse. */
export function editPlan(
  current: ServerRecord,
  command: readonly string[],
  flags: EditFlags,
  folder: LaunchFolder | undefined,
): AddPlan {
  const local = command.length > 0 || (flags.url === undefined && current.transport === 'stdio');
  const plan = local ? localPlan(current, command, flags, folder) : remotePlan(current, flags);
  return plainBecomesSecret(plan, flags);
}

/**
 * `--secret-env A` for an A the server has as a plain value (and this command does not
 * give with --env): A becomes a secret, its plain value leaves the definition.
 */
function plainBecomesSecret(plan: AddPlan, flags: EditFlags): AddPlan {
  const givenNow = new Set(Object.keys(parseEnvFlags(flags.env)));
  const moved = flags.secretEnv.filter(
    (name) => name in plan.definition.env && !givenNow.has(name),
  );
  if (moved.length === 0) return plan;
  const env = Object.fromEntries(
    Object.entries(plan.definition.env).filter(([name]) => !moved.includes(name)),
  );
  const notes = moved.map((name) => `env ${name} is a secret now: its plain value was dropped`);
  return { definition: { ...plan.definition, env }, notes: [...plan.notes, ...notes] };
}
