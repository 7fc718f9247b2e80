import {
  chooseLocation,
  describeLocation,
  fileLocation,
  findAgent,
  importedFrom,
  planImport,
  recordImports,
  requireConfig,
  configFromText,
  malformedError,
  type AgentDefinition,
  type ConfigLocation,
  type ImportItem,
  type SecretToStore,
} from '../../agents/index.js';
import { resolve } from 'node:path';
import { CofferError, isCofferError } from '../../domain/errors.js';
import type { KnownServer } from '../../domain/same-launch.js';
import {
  importItemView,
  recordedImports,
  type ImportOutcome,
} from '../../domain/import-item-view.js';
import type { ApiClient } from '../api-client.js';
import type { CliContext } from '../cli-context.js';
import { CliExit, ExitCode } from '../output.js';
import { describeItem } from './agents-import-report.js';
import { agentContext, parseScope, writeJson } from './agents-shared.js';
import { warnStartProblems } from './start-problems.js';

export interface ImportFlags {
  scope: string;
  /** A file of the agent's format that is none of its configs. */
  file?: string;
  dryRun?: boolean;
  rename?: boolean;
  secret: string[];
  json?: boolean;
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

async function knownServers(api: ApiClient): Promise<KnownServer[]> {
  return (await api.get<{ servers: KnownServer[] }>('/servers')).servers;
}

/** Entries Coffer already serves were recorded: install --replace can now take them out. */
function servedAlready(count: number, replaceCommand: string): string {
  const what = count === 1 ? 'One entry is a server' : `${count} entries are servers`;
  return `${what} Coffer already has: \`${replaceCommand}\` takes ${count === 1 ? 'it' : 'them'} out of this file.`;
}

function report(
  context: CliContext,
  flags: ImportFlags,
  header: string,
  results: [ImportItem, ImportOutcome][],
  replaceCommand: string,
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
  if (same > 0 && flags.dryRun !== true && replaceCommand !== '')
    lines.push(servedAlready(same, replaceCommand));
  context.stdout.write(`${lines.join('\n')}\n`);
}

/** `--file -` is standard input: `pbpaste | coffer agents import claude-desktop --file -`. */
const STDIN = '-';

function whereToRead(context: CliContext, agent: AgentDefinition, flags: ImportFlags) {
  if (flags.file === undefined)
    return chooseLocation(agent, agentContext(context), parseScope(flags.scope));
  if (flags.scope !== 'user')
    throw new CofferError('INVALID_INPUT', '--scope and --file name two different files', {
      hint: 'give one of them',
    });
  const path = flags.file === STDIN ? 'standard input' : resolve(flags.file);
  return fileLocation(agent, agentContext(context), path);
}

async function readSource(location: ConfigLocation, file: string | undefined) {
  if (file !== STDIN) return requireConfig(location);
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(Buffer.from(chunk as Buffer));
  const loaded = configFromText(location, Buffer.concat(chunks).toString('utf8'));
  if (loaded.state === 'malformed') throw malformedError(location.path, loaded.problem);
  return { exists: true, document: loaded.document };
}

/**
 * Remembers what an agent's config had that Coffer now serves, and returns the install
 * that takes it out of that file ('' when there is none: a file that is no agent's config).
 */
function record(
  context: CliContext,
  agent: AgentDefinition,
  location: ConfigLocation,
  flags: ImportFlags,
  results: readonly [ImportItem, ImportOutcome][],
): string {
  const fromConfig = flags.file === undefined;
  const recorded = flags.dryRun === true || !fromConfig ? [] : recordedImports(results);
  recordImports(context.paths.home, agent, location, recorded);
  const scope = flags.scope === 'user' ? '' : ` --scope ${flags.scope}`;
  return fromConfig ? `coffer agents install ${agent.id}${scope} --replace` : '';
}

function headerOf(agent: AgentDefinition, location: ConfigLocation, flags: ImportFlags): string {
  return flags.file === undefined
    ? `${agent.displayName}: ${describeLocation(location)}`
    : `${location.path} (read as ${agent.displayName}'s format)`;
}

/** `coffer agents import <agent> [--scope|--file] [--dry-run] [--rename] [--secret NAME]…`. */
export async function importAgent(
  context: CliContext,
  id: string,
  flags: ImportFlags,
): Promise<void> {
  const agent = findAgent(id);
  const location = whereToRead(context, agent, flags);
  const { exists, document } = await readSource(location, flags.file);
  if (!exists && flags.file !== undefined)
    throw new CofferError('INVALID_INPUT', `No file ${location.path}`, {
      hint: `give the path of a file in ${agent.displayName}'s format`,
    });
  const header = headerOf(agent, location, flags);
  const servers = document.servers(location.serversKey) ?? {};
  if (!exists || Object.keys(servers).length === 0) {
    context.stdout.write(`${header}\n  no MCP servers to import\n`);
    return;
  }
  const api = await context.api();
  const items = planImport(agent, servers, {
    known: await knownServers(api),
    rename: flags.rename === true,
    secretNames: flags.secret,
    imported: importedFrom(context.paths.home, location),
    ownPort: api.daemon.port,
  });
  const dryRun = flags.dryRun === true;
  const results: [ImportItem, ImportOutcome][] = [];
  for (const item of items)
    results.push([item, dryRun ? { kind: 'planned' } : await runItem(api, item)]);
  report(context, flags, header, results, record(context, agent, location, flags, results));
  const added = results.filter(([, outcome]) => outcome.kind === 'added');
  await warnStartProblems(
    context,
    api,
    added.map(([item]) => item.server),
  );
  if (results.some(([, outcome]) => outcome.kind === 'failed')) throw new CliExit(ExitCode.GENERIC);
}
