import { z } from 'zod';
import type { Kysely, Transaction } from 'kysely';
import { CofferError } from '../domain/errors.js';
import type { ServerDefinition, ServerRecord } from '../domain/server-definition.js';
import type { Database, NewServerRow, ServerRow } from './schema.js';
import { serverNotFound } from './sqlite-errors.js';

/** Conversions between ServerRecord and its row; optional fields are absent, never null. */

const stringList = z.array(z.string());
const stringMap = z.record(z.string(), z.string());

/** A row someone edited by hand must not crash the daemon with a TypeError later. */
function parseJson<T>(schema: z.ZodType<T>, text: string, column: string, server: string): T {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    value = undefined;
  }
  const parsed = schema.safeParse(value);
  if (parsed.success) return parsed.data;
  throw new CofferError(
    'STORE_FAILURE',
    `The stored ${column} of server "${server}" is unreadable`,
    {
      hint: `remove it with \`coffer mcp remove ${server}\` and add it again`,
      data: { server, column },
    },
  );
}

/** The definition a row holds (what `update` merges a patch into). */
export function rowToDefinition(row: ServerRow): ServerDefinition {
  const name = row.name;
  return {
    name,
    transport: row.transport,
    ...(row.command === null ? {} : { command: row.command }),
    args: parseJson(stringList, row.args, 'args', name),
    env: parseJson(stringMap, row.env, 'env', name),
    ...(row.cwd === null ? {} : { cwd: row.cwd }),
    ...(row.url === null ? {} : { url: row.url }),
    headers: parseJson(stringMap, row.headers, 'headers', name),
    secret_env: parseJson(stringList, row.secret_env, 'secret_env', name),
    secret_headers: parseJson(stringList, row.secret_headers, 'secret_headers', name),
    enabled: row.enabled === 1,
    auto_enable_new_capabilities: row.auto_enable_new_capabilities === 1,
    shared: row.shared === 1,
  };
}

export function rowToRecord(row: ServerRow): ServerRecord {
  return {
    id: row.id,
    ...rowToDefinition(row),
    created_at: row.created_at,
    updated_at: row.updated_at,
  };
}

/** The definition columns of a row (no id, no timestamps). */
export function definitionColumns(
  definition: ServerDefinition,
): Omit<NewServerRow, 'name' | 'created_at' | 'updated_at'> {
  return {
    transport: definition.transport,
    command: definition.command ?? null,
    args: JSON.stringify(definition.args),
    env: JSON.stringify(definition.env),
    cwd: definition.cwd ?? null,
    url: definition.url ?? null,
    headers: JSON.stringify(definition.headers),
    secret_env: JSON.stringify(definition.secret_env),
    secret_headers: JSON.stringify(definition.secret_headers),
    enabled: definition.enabled ? 1 : 0,
    auto_enable_new_capabilities: definition.auto_enable_new_capabilities ? 1 : 0,
    shared: definition.shared ? 1 : 0,
  };
}

/** The surrogate id behind a server name; preferences are keyed by it in the database. */
export async function serverIdOf(
  db: Kysely<Database> | Transaction<Database>,
  name: string,
): Promise<number> {
  const row = await db
    .selectFrom('mcp_servers')
    .select('id')
    .where('name', '=', name)
    .executeTakeFirst();
  if (row === undefined) throw serverNotFound(name);
  return row.id;
}
