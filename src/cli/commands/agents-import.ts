import { resolve } from 'node:path';
import {
  chooseLocation,
  describeLocation,
  fileLocation,
  findAgent,
  readSnippet,
  requireConfig,
  type AgentContext,
  type AgentDefinition,
  type ConfigLocation,
  type Snippet,
} from '../../agents/index.js';
import { CofferError } from '../../domain/errors.js';
import { placeHere, placeOf } from '../../agents/launch-folder.js';
import type { CliContext } from '../cli-context.js';
import { agentContext, parseScope } from './agents-shared.js';
import { runImportOf, type RunFlags } from './import-run.js';
import { readAll } from './secret-input.js';

export interface ImportFlags extends RunFlags {
  scope: string;
  /** A file of the agent's format that is none of its configs. */
  file?: string;
}

/** `--file -` is standard input: `pbpaste | coffer agents import claude-desktop --file -`. */
const STDIN = '-';

function whereToRead(where: AgentContext, agent: AgentDefinition, flags: ImportFlags) {
  if (flags.file === undefined) return chooseLocation(agent, where, parseScope(flags.scope));
  if (flags.scope !== 'user')
    throw new CofferError('INVALID_INPUT', '--scope and --file name two different files', {
      hint: 'give one of them',
    });
  const path = flags.file === STDIN ? 'standard input' : resolve(flags.file);
  return fileLocation(agent, where, path);
}

/** An agent's own file; or, with --file, a snippet (the entries alone, braces left out). */
async function readSource(location: ConfigLocation, file: string | undefined): Promise<Snippet> {
  if (file !== undefined)
    return readSnippet(location, file === STDIN ? await readAll(process.stdin) : undefined);
  const { exists, document } = requireConfig(location);
  return { exists, servers: document.servers(location.serversKey) };
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
  const where = agentContext(context);
  const location = whereToRead(where, agent, flags);
  const { exists, servers: found } = await readSource(location, flags.file);
  if (!exists && flags.file !== undefined)
    throw new CofferError('INVALID_INPUT', `No file ${location.path}`, {
      hint: `give the path of a file in ${agent.displayName}'s format`,
    });
  const header = headerOf(agent, location, flags);
  const servers = found ?? {};
  if (!exists || Object.keys(servers).length === 0) {
    context.stdout.write(`${header}\n  no MCP servers to import\n`);
    return;
  }
  const scope = flags.scope === 'user' ? '' : ` --scope ${flags.scope}`;
  const replaceCommand = `coffer agents install ${agent.id}${scope} --replace`;
  // A snippet's paths are the folder it is imported from, as `coffer mcp add`'s are.
  const place = flags.file === undefined ? placeOf(location, where) : placeHere(where);
  const source = { agent, location, header, servers, place };
  await runImportOf(
    context,
    flags.file === undefined ? { ...source, replaceCommand } : source,
    flags,
  );
}
