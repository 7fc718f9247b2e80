import {
  importedFrom,
  planImport,
  recordImports,
  type AgentDefinition,
  type ConfigLocation,
  type ImportItem,
  type SecretToStore,
} from '../../agents/index.js';
import type { EntryPlace } from '../../agents/launch-folder.js';
import { isCofferError } from '../../domain/errors.js';
import {
  importItemView,
  recordedImports,
  type ImportOutcome,
} from '../../domain/import-item-view.js';
import type { ApiClient } from '../api-client.js';
import type { CliContext } from '../cli-context.js';
import { CliExit, ExitCode } from '../output.js';
import { describeItem } from './agents-import-report.js';
import { knownServers, writeJson } from './agents-shared.js';
import { warnPlannedProblems, warnStartProblems } from './start-problems.js';

/**
 * An import once its entries are read, wherever from (an agent's config, a file in its
 * format, the JSON of `coffer mcp add-json`): planned against the daemon's servers, run
 * entry by entry, reported, and the servers that cannot start yet warned of.
 */

export interface ImportSource {
  readonly agent: AgentDefinition;
  readonly location: ConfigLocation;
  /** The first line of the report. */
  readonly header: string;
  readonly servers: Readonly<Record<string, unknown>>;
  /** Where the entries were written (launch-folder.ts): what their paths mean. */
  readonly place: EntryPlace;
  /**
   * For an agent's own config: the install that takes what Coffer now serves out of it
   * (what was imported is recorded for it). Absent for text that is no agent's config.
   */
  readonly replaceCommand?: string;
}

export interface RunFlags {
  readonly dryRun?: boolean;
  readonly rename?: boolean;
  readonly secret: readonly string[];
  readonly json?: boolean;
}

function failure(error: unknown): ImportOutcome {
  return { kind: 'failed', message: isCofferError(error) ? error.userMessage : 'internal error' };
}

/**
 * Registers one server, then hands its secrets to the daemon for the keychain. A secret
 * the daemon refuses undoes the server; a daemon without the secrets route (NOT_FOUND)
 * keeps the server and reports the secrets as pending, and install --replace then
 * leaves that entry, the only copy of them, in the agent file.
 */
async function runItem(api: ApiClient, item: ImportItem): Promise<ImportOutcome> {
  if (item.action !== 'add' || item.definition === undefined) return { kind: 'planned' };
  try {
    await api.post('/servers', item.definition);
  } catch (error) {
    return failure(error);
  }
  const pending: string[] = [];
  const stored: SecretToStore[] = [];
  for (const secret of item.secrets) {
    try {
      await api.post('/secrets', secret);
      stored.push(secret);
    } catch (error) {
      if (isCofferError(error) && error.code === 'NOT_FOUND') {
        pending.push(secret.name);
        continue;
      }
      await undo(api, item.server, stored);
      return failure(error);
    }
  }
  return { kind: 'added', pending };
}

/** Takes back a half-imported server: its stored secrets, then the server. */
async function undo(api: ApiClient, server: string, stored: readonly SecretToStore[]) {
  const name = encodeURIComponent(server);
  for (const secret of stored) {
    const path = `/secrets/${name}/${secret.kind}/${encodeURIComponent(secret.name)}`;
    await api.delete(path).catch(() => undefined);
  }
  await api.delete(`/servers/${name}`).catch(() => undefined);
}

/** Entries Coffer already serves were recorded: install --replace can now take them out. */
function servedAlready(count: number, replaceCommand: string): string {
  const what = count === 1 ? 'One entry is a server' : `${count} entries are servers`;
  return `${what} Coffer already has: \`${replaceCommand}\` takes ${count === 1 ? 'it' : 'them'} out of this file.`;
}

function report(
  context: CliContext,
  flags: RunFlags,
  header: string,
  results: [ImportItem, ImportOutcome][],
  replaceCommand: string | undefined,
) {
  if (flags.json === true) {
    writeJson(context, {
      dry_run: flags.dryRun === true,
      items: results.map(([item, outcome]) => importItemView(item, outcome)),
    });
    return;
  }
  const lines = [header, ...results.map(([item, outcome]) => describeItem(item, outcome))];
  const added = results.filter(([, outcome]) => outcome.kind === 'added').length;
  if (flags.dryRun === true) lines.push('Dry run: nothing was changed.');
  else lines.push(`Imported ${added} of ${results.length} entries into Coffer.`);
  const same = results.filter(([item]) => item.action === 'same').length;
  if (same > 0 && flags.dryRun !== true && replaceCommand !== undefined)
    lines.push(servedAlready(same, replaceCommand));
  context.stdout.write(`${lines.join('\n')}\n`);
}

/** Plans, runs (unless a dry run), reports; exits non-zero when an entry failed. */
export async function runImportOf(
  context: CliContext,
  source: ImportSource,
  flags: RunFlags,
): Promise<readonly ImportItem[]> {
  const { agent, location, replaceCommand } = source;
  const api = await context.api();
  const items = planImport(agent, source.servers, {
    known: await knownServers(api),
    rename: flags.rename === true,
    secretNames: flags.secret,
    imported: importedFrom(context.paths.home, location),
    ownPort: api.daemon.port,
    place: source.place,
  });
  const dryRun = flags.dryRun === true;
  const results: [ImportItem, ImportOutcome][] = [];
  for (const item of items)
    results.push([item, dryRun ? { kind: 'planned' } : await runItem(api, item)]);
  // Only an agent's own config is one install --replace edits.
  const recorded = dryRun || replaceCommand === undefined ? [] : recordedImports(results);
  recordImports(context.paths.home, agent, location, recorded);
  report(context, flags, source.header, results, replaceCommand);
  if (dryRun)
    await warnPlannedProblems(
      context,
      api,
      items.flatMap(({ action, server, definition }) =>
        action === 'add' && definition !== undefined ? [{ server, definition }] : [],
      ),
    );
  const added = results.filter(([, outcome]) => outcome.kind === 'added');
  await warnStartProblems(
    context,
    api,
    added.map(([item]) => item.server),
  );
  if (results.some(([, outcome]) => outcome.kind === 'failed')) throw new CliExit(ExitCode.GENERIC);
  refuseBrokenEntries(context, items);
  return items;
}

/**
 * An entry the file holds but nobody can run is bad input: a script that goes on to
 * `install --replace` should stop here (that entry stays in the agent file either way).
 */
function refuseBrokenEntries(context: CliContext, items: readonly ImportItem[]) {
  const broken = items.filter(({ action }) => action === 'invalid').map(({ original }) => original);
  if (broken.length === 0) return;
  const which = broken.length === 1 ? `"${broken[0] ?? ''}"` : `${broken.length} entries`;
  context.stderr.write(
    `coffer: ${which} cannot be imported (fix ${broken.length === 1 ? 'it' : 'them'} in the file and import again, or add ${broken.length === 1 ? 'it' : 'each'} with \`coffer mcp add\`)\n`,
  );
  throw new CliExit(ExitCode.USAGE);
}
