import type { Command } from 'commander';
import { CofferError } from '../../domain/errors.js';
import { guardEvents } from '../../domain/secret-refusals.js';
import { parseSince } from '../../domain/time-window.js';
import type { ApiClient } from '../api-client.js';
import type { CliContext } from '../cli-context.js';
import { colorsFor } from '../render/colors.js';
import { renderActivityLine, type ActivityRow } from '../render/activity-lines.js';
import { checkName } from './mcp-input.js';

interface ActivityFlags {
  server?: string;
  since?: string;
  outcome?: string;
  guard?: string;
  limit?: string;
  json?: boolean;
  follow?: boolean;
}

interface ActivityPage {
  readonly activity: ActivityRow[];
  readonly next_before_id: number | null;
}

const FOLLOW_POLL_MS = 1_000;
/** New rows read per poll at most: a flood is summarised rather than paged forever. */
const FOLLOW_MAX_PAGES = 10;
const PAGE = 100;

function parseLimit(text: string | undefined): number {
  if (text === undefined) return 50;
  const value = Number(text);
  if (!Number.isInteger(value) || value < 1 || value > 1000)
    throw new CofferError('INVALID_INPUT', `--limit must be a whole number from 1 to 1000`);
  return value;
}

/** Checks the flags locally (no daemon is started for a typo) and builds the query. */
function baseQuery(flags: ActivityFlags): URLSearchParams {
  const query = new URLSearchParams();
  if (flags.server !== undefined) query.set('server', checkName(flags.server));
  if (flags.since !== undefined) {
    parseSince(flags.since, new Date());
    query.set('since', flags.since);
  }
  if (flags.outcome !== undefined) {
    if (flags.outcome !== 'ok' && flags.outcome !== 'error')
      throw new CofferError('INVALID_INPUT', '--outcome must be ok or error');
    query.set('outcome', flags.outcome);
  }
  if (flags.guard !== undefined) {
    const allowed: readonly string[] = ['any', ...guardEvents];
    if (!allowed.includes(flags.guard))
      throw new CofferError('INVALID_INPUT', `--guard must be one of ${allowed.join(', ')}`);
    query.set('guard', flags.guard);
  }
  return query;
}

function fetchPage(api: ApiClient, query: URLSearchParams, limit: number, beforeId?: number) {
  const params = new URLSearchParams(query);
  params.set('limit', String(limit));
  if (beforeId !== undefined) params.set('before_id', String(beforeId));
  return api.get<ActivityPage>(`/activity?${params.toString()}`);
}

/** Rows newer than `lastId`, oldest first, paging back until it is reached. */
async function newerThan(api: ApiClient, query: URLSearchParams, lastId: number) {
  const rows: ActivityRow[] = [];
  let before: number | undefined;
  for (let page = 0; page < FOLLOW_MAX_PAGES; page++) {
    const { activity, next_before_id } = await fetchPage(api, query, PAGE, before);
    const fresh = activity.filter((row) => row.id > lastId);
    rows.push(...fresh);
    if (fresh.length < activity.length || next_before_id === null) break;
    before = next_before_id;
  }
  return rows.reverse();
}

async function follow(
  context: CliContext,
  api: ApiClient,
  query: URLSearchParams,
  from: number,
  json: boolean,
) {
  const print = printer(context, json);
  let lastId = from;
  for (;;) {
    await new Promise((resolve) => setTimeout(resolve, FOLLOW_POLL_MS));
    const rows = await newerThan(api, query, lastId);
    for (const row of rows) print(row);
    lastId = rows.at(-1)?.id ?? lastId;
  }
}

/**
 * Nothing recorded for `--server nosuch` may be a typo: say so when Coffer has no server
 * of that name (a removed server's history is still asked for, so this is no error).
 */
async function noSuchServer(api: ApiClient, server: string | undefined): Promise<string> {
  if (server === undefined) return '';
  try {
    await api.get(`/servers/${encodeURIComponent(server)}`);
    return '';
  } catch (error) {
    if (!(error instanceof CofferError) || error.code !== 'SERVER_NOT_FOUND') return '';
    return ` ${error.message}${error.hint === undefined ? '' : ` (${error.hint})`}.`;
  }
}

/** JSON lines when following (one object per entry), readable lines otherwise. */
function printer(context: CliContext, json: boolean) {
  const colors = colorsFor(context.stdout, context.env);
  return (row: ActivityRow): void =>
    context.stdout.write(json ? `${JSON.stringify(row)}\n` : renderActivityLine(row, colors));
}

async function showActivity(context: CliContext, flags: ActivityFlags): Promise<void> {
  const query = baseQuery(flags);
  const limit = parseLimit(flags.limit);
  const api = await context.api();
  const page = await fetchPage(api, query, limit);
  const json = flags.json === true;
  if (json && flags.follow !== true) {
    context.stdout.write(`${JSON.stringify(page, null, 2)}\n`);
    return;
  }
  const oldestFirst = [...page.activity].reverse();
  if (oldestFirst.length === 0 && flags.follow !== true) {
    context.stdout.write(
      `No activity recorded (for these filters).${await noSuchServer(api, flags.server)}\n`,
    );
    return;
  }
  const print = printer(context, json);
  for (const row of oldestFirst) print(row);
  if (flags.follow === true) await follow(context, api, query, page.activity[0]?.id ?? 0, json);
}

/** `coffer activity [--server S] [--since 1h] [--outcome ok|error] [--guard E] [--json] [--follow]`. */
export function registerActivityCommand(program: Command, context: CliContext): void {
  program
    .command('activity')
    .description('show what agents called through Coffer, and what was changed, oldest first')
    .option('--server <name>', 'only this server')
    .option('--since <when>', 'only since then: 30m, 1h, 2d or an ISO time')
    .option('--outcome <ok|error>', 'only successes or only failures')
    .option(
      '--guard <event>',
      'only calls the secret guard acted on: any, secret_blocked, credential_flagged, credential_blocked or redacted',
    )
    .option('--limit <n>', 'at most this many entries (default 50, at most 1000)')
    .option(
      '--json',
      'print JSON, newest first as the REST API answers (with --follow: one JSON object per line, oldest first)',
    )
    .option('--follow', 'keep printing new entries as they are recorded (Ctrl-C to stop)')
    .action((flags: ActivityFlags) => showActivity(context, flags));
}
