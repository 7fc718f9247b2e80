import type { Command } from 'commander';
import { CofferError } from '../../domain/errors.js';
import type { ToolSearchResult } from '../../domain/ports.js';
import {
  DEFAULT_SEARCH_LIMIT,
  MAX_QUERY_LENGTH,
  MAX_SEARCH_LIMIT,
} from '../../domain/tool-search.js';
import type { CliContext } from '../cli-context.js';
import { colorsFor } from '../render/colors.js';
import { renderToolHit } from '../render/tool-hits.js';
import { checkName } from './mcp-input.js';

interface SearchFlags {
  limit?: string;
  server?: string;
  json?: boolean;
}

type SearchAnswer = ToolSearchResult & { readonly query: string };

/** Checks the input locally, so a typo never starts a daemon. */
function searchPath(words: readonly string[], flags: SearchFlags): string {
  const query = words.join(' ').trim();
  if (query === '') throw new CofferError('INVALID_INPUT', 'say what to search for');
  if (query.length > MAX_QUERY_LENGTH)
    throw new CofferError(
      'INVALID_INPUT',
      `the query must be at most ${MAX_QUERY_LENGTH} characters`,
    );
  const params = new URLSearchParams({ q: query, limit: String(parseLimit(flags.limit)) });
  if (flags.server !== undefined) params.set('server', checkName(flags.server));
  return `/tools/search?${params.toString()}`;
}

function parseLimit(text: string | undefined): number {
  if (text === undefined) return DEFAULT_SEARCH_LIMIT;
  const value = Number(text);
  if (!Number.isInteger(value) || value < 1 || value > MAX_SEARCH_LIMIT)
    throw new CofferError(
      'INVALID_INPUT',
      `--limit must be a whole number from 1 to ${MAX_SEARCH_LIMIT}`,
    );
  return value;
}

async function searchTools(
  context: CliContext,
  words: readonly string[],
  flags: SearchFlags,
): Promise<void> {
  const path = searchPath(words, flags);
  const api = await context.api();
  const answer = await api.get<SearchAnswer>(path);
  if (flags.json === true) {
    context.stdout.write(`${JSON.stringify(answer, null, 2)}\n`);
    return;
  }
  const colors = colorsFor(context.stdout, context.env);
  // Said first and on stderr: an unreachable server was not searched, not "no match".
  for (const { server, message } of answer.unavailable)
    context.stderr.write(`coffer: could not search ${server}: ${message}\n`);
  if (answer.tools.length === 0) {
    context.stdout.write(`No enabled tool matches "${answer.query}".\n`);
    return;
  }
  answer.tools.forEach((hit, at) => context.stdout.write(renderToolHit(hit, at + 1, colors)));
}

/**
 * `coffer tools search <query…> [--limit N] [--server S] [--json]`: the enabled tools
 * that best match a task, ranked like the built-in coffer__search_tools that agents use.
 */
export function registerToolsCommands(program: Command, context: CliContext): void {
  const tools = program.command('tools').description('find tools among every enabled server');
  tools
    .command('search')
    .description('rank the enabled tools of every enabled server for a task, best first')
    .argument('<query...>', 'what you want to do, in plain words')
    .option('--limit <n>', `at most this many tools (default ${DEFAULT_SEARCH_LIMIT})`)
    .option('--server <name>', 'only tools of this server')
    .option('--json', 'print JSON')
    .action((words: string[], flags: SearchFlags) => searchTools(context, words, flags));
}
