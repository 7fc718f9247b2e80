import {
  serverDefinitionSchema,
  type ServerDefinition,
  type ServerDefinitionInput,
} from '../domain/server-definition.js';
import { isOwnEndpoint } from '../domain/own-endpoint.js';
import { sameLaunch, type KnownServer } from '../domain/same-launch.js';
import { entryFingerprint } from './entry-fields.js';
import { anchorLaunch, type EntryPlace } from './launch-folder.js';
import { expandDefaults } from './default-variables.js';
import { expandPathVariables, pathVariables } from './path-variables.js';
import { fillInNote, hasPlaceholder, isSecret } from './secret-detection.js';
import { freeName, toCofferName } from './server-names.js';
import { isSkipped, type AgentDefinition, type AgentServer, type ParsedEntry } from './types.js';

/**
 * What `coffer agents import` will do with each entry of one agent file, decided before
 * anything is sent: pure, so `--dry-run` prints exactly this plan and tests check it.
 */

export interface SecretToStore {
  readonly server: string;
  readonly kind: 'env' | 'header';
  readonly name: string;
  readonly value: string;
}

/** `same`: Coffer already has this server (another agent's import, say): nothing is added. */
export type ImportAction = 'add' | 'same' | 'clash' | 'skip' | 'invalid';

export interface ImportItem {
  /** The entry's name in the agent file. */
  readonly original: string;
  /** The Coffer server name it gets (or would get). */
  readonly server: string;
  readonly action: ImportAction;
  readonly reason?: string;
  readonly definition?: ServerDefinition;
  readonly secrets: readonly SecretToStore[];
  readonly notes: readonly string[];
  readonly fingerprint: string;
  /** The entry's keys Coffer did not carry over (AgentServer.dropped). */
  readonly dropped?: readonly string[];
}

export interface ImportOptions {
  /** The servers Coffer already has: their names are taken, and an entry may be one of them. */
  readonly known: readonly KnownServer[];
  /** Give clashing servers a free name instead of skipping them. */
  readonly rename?: boolean;
  /** Extra env / header names to treat as secrets (any case). */
  readonly secretNames?: readonly string[];
  /** Entries imported from this file before: original name → Coffer server name. */
  readonly imported?: ReadonlyMap<string, string>;
  /** The daemon's port: an entry whose URL is this daemon is Coffer itself, over HTTP. */
  readonly ownPort?: number;
  /** Where the entries were written (placeOf); absent: their paths stay as written. */
  readonly place?: EntryPlace | undefined;
}

/** Coffer's own shim entry: importing it would make Coffer serve itself. */
export function isCofferShim(server: AgentServer): boolean {
  return server.args.includes('shim') && server.args.some((arg) => /coffer(\.js)?$/.test(arg));
}

interface Split {
  readonly plain: Record<string, string>;
  readonly secret: Record<string, string>;
  /** Secrets whose value is a stand-in: named for Coffer to ask for, nothing stored. */
  readonly unset: string[];
}

function splitSecrets(
  values: Readonly<Record<string, string>>,
  marked: ReadonlySet<string>,
  label: string,
  notes: string[],
): Split {
  const plain: Record<string, string> = {};
  const secret: Record<string, string> = {};
  const unset: string[] = [];
  for (const [name, value] of Object.entries(values)) {
    const fillIn = fillInNote(label, name, value, marked);
    if (fillIn !== undefined) {
      notes.push(fillIn);
      unset.push(name);
    } else if (hasPlaceholder(value)) {
      // A reference is not a secret, and Coffer cannot resolve it: say so, keep it visible.
      notes.push(`${label} ${name} is a placeholder the agent expands; Coffer passes it unchanged`);
      plain[name] = value;
    } else if (isSecret(name, value, marked)) secret[name] = value;
    else plain[name] = value;
  }
  return { plain, secret, unset };
}

function definitionInput(
  name: string,
  server: AgentServer,
  env: Split,
  headers: Split,
): ServerDefinitionInput {
  return {
    name,
    transport: server.transport,
    ...(server.command === undefined ? {} : { command: server.command }),
    args: [...server.args],
    env: env.plain,
    ...(server.cwd === undefined ? {} : { cwd: server.cwd }),
    ...(server.url === undefined ? {} : { url: server.url }),
    headers: headers.plain,
    secret_env: [...Object.keys(env.secret), ...env.unset],
    secret_headers: [...Object.keys(headers.secret), ...headers.unset],
    enabled: server.enabled,
  };
}

function secretsOf(server: string, env: Split, headers: Split): SecretToStore[] {
  return [
    ...Object.entries(env.secret).map(([name, value]) => ({
      server,
      kind: 'env' as const,
      name,
      value,
    })),
    ...Object.entries(headers.secret).map(([name, value]) => ({
      server,
      kind: 'header' as const,
      name,
      value,
    })),
  ];
}

function launchNotes(server: AgentServer): string[] {
  const texts = [server.command ?? '', server.url ?? '', ...server.args];
  return texts.some(hasPlaceholder)
    ? [
        'the command, arguments or URL use placeholders the agent expands; Coffer passes them unchanged',
      ]
    : [];
}

interface Naming {
  readonly server: string;
  readonly clash?: string;
  readonly note?: string;
}

function chooseName(
  original: string,
  taken: ReadonlySet<string>,
  existing: ReadonlySet<string>,
  rename: boolean,
): Naming {
  const base = toCofferName(original);
  const note = base === original ? undefined : `named "${base}" in Coffer`;
  if (!taken.has(base)) return { server: base, ...(note === undefined ? {} : { note }) };
  if (rename) {
    const server = freeName(base, taken);
    return { server, note: `named "${server}" in Coffer ("${base}" is taken)` };
  }
  const clash = existing.has(base)
    ? `a Coffer server named "${base}" already exists (use --rename)`
    : `another entry of this file is already named "${base}" in Coffer (use --rename)`;
  return { server: base, clash };
}

type ItemBase = Pick<ImportItem, 'original' | 'fingerprint' | 'secrets'>;

/** The options, with the names of the known servers drawn once. */
interface Planning extends ImportOptions {
  readonly existing: ReadonlySet<string>;
}

/** Entries that are not imported at all: unreadable, Coffer itself, or imported before. */
function skipOf(
  parsed: ParsedEntry,
  original: string,
  options: Planning,
): { server: string; reason: string } | undefined {
  if (isSkipped(parsed)) return { server: original, reason: parsed.skip };
  if (isCofferShim(parsed)) return { server: original, reason: 'it is Coffer itself' };
  const url = parsed.url;
  if (url !== undefined && options.ownPort !== undefined && isOwnEndpoint(url, options.ownPort))
    return { server: original, reason: 'it is Coffer itself (its HTTP endpoint)' };
  const previous = options.imported?.get(original);
  if (previous !== undefined && options.existing.has(previous))
    return { server: previous, reason: `already imported as "${previous}"` };
  return undefined;
}

/** The names `--secret` marks, in lower case (headers compare so). */
function markedNames(options: ImportOptions): ReadonlySet<string> {
  return new Set((options.secretNames ?? []).map((name) => name.toLowerCase()));
}

function definitionItem(
  base: ItemBase,
  server: string,
  parsed: AgentServer,
  notes: string[],
  options: ImportOptions,
): ImportItem {
  const marked = markedNames(options);
  const env = splitSecrets(parsed.env, marked, 'env', notes);
  const headers = splitSecrets(parsed.headers, marked, 'header', notes);
  const result = serverDefinitionSchema.safeParse(definitionInput(server, parsed, env, headers));
  if (!result.success) {
    const reason = result.error.issues[0]?.message ?? 'not a valid server definition';
    return { ...base, server, action: 'invalid', reason, notes };
  }
  const secrets = secretsOf(server, env, headers);
  const dropped = parsed.dropped === undefined ? {} : { dropped: parsed.dropped };
  return { ...base, server, action: 'add', definition: result.data, secrets, notes, ...dropped };
}

function planEntry(
  agent: AgentDefinition,
  original: string,
  raw: unknown,
  taken: Set<string>,
  options: Planning,
): ImportItem {
  const base: ItemBase = { original, fingerprint: entryFingerprint(raw), secrets: [] };
  const parsed = readWhere(agent, raw, options);
  if (isSkipped(parsed) && parsed.malformed === true)
    return { ...base, server: original, action: 'invalid', reason: parsed.skip, notes: [] };
  const skip = skipOf(parsed, original, options);
  if (skip !== undefined || isSkipped(parsed)) {
    return {
      ...base,
      server: skip?.server ?? original,
      action: 'skip',
      reason: skip?.reason ?? '',
      notes: [],
    };
  }
  const naming = chooseName(original, taken, options.existing, options.rename === true);
  const item = definitionItem(base, naming.server, parsed, entryNotes(parsed), options);
  const definition = item.definition;
  const twin =
    definition === undefined
      ? undefined
      : options.known.find((known) => sameLaunch(known, definition));
  // Served already under its own name: the name chosen for a new server does not apply.
  if (twin !== undefined) return sameItem(item, twin);
  const notes = naming.note === undefined ? item.notes : [naming.note, ...item.notes];
  if (naming.clash !== undefined)
    return { ...base, server: naming.server, action: 'clash', reason: naming.clash, notes };
  if (item.action === 'add') taken.add(item.server);
  return { ...item, notes };
}

/**
 * The entry as the agent runs it where it is written: Claude Code's `${VAR:-default}` read
 * as their defaults, path variables filled in, and a local server naming paths of the
 * project given the project as its folder.
 */
function readWhere(agent: AgentDefinition, raw: unknown, options: ImportOptions): ParsedEntry {
  const entry = agent.parseEntry(raw);
  const { place } = options;
  if (isSkipped(entry)) return entry;
  const marked = markedNames(options);
  const parsed =
    agent.defaultVariables === true
      ? expandDefaults(entry, (name) => isSecret(name, '', marked))
      : entry;
  if (place === undefined) return parsed;
  const read =
    agent.pathVariables === true ? expandPathVariables(parsed, pathVariables(place)) : parsed;
  const anchored =
    read.transport === 'stdio' && place.folder !== undefined
      ? anchorLaunch(read, place.folder)
      : undefined;
  if (anchored === undefined) return read;
  return { ...read, cwd: anchored.cwd, notes: [...read.notes, anchored.note] };
}

/** What the reader of an entry should know, whatever becomes of it. */
function entryNotes(parsed: AgentServer): string[] {
  return [...parsed.notes, ...launchNotes(parsed)];
}

/**
 * An entry Coffer already serves: recorded as imported (so `install --replace` takes it
 * out of the agent file) but not added again, and its secret values stay where they are.
 */
function sameItem(item: ImportItem, twin: KnownServer): ImportItem {
  const names = item.secrets.map((secret) => secret.name);
  const secrets = names.length === 0 ? '' : `; Coffer uses the ${names.join(', ')} it holds`;
  // Replacing the entry would take the server from the agent until it is enabled again.
  const off = twin.enabled === false ? `; it is disabled: coffer mcp enable ${twin.name}` : '';
  const reason = `Coffer already has it as "${twin.name}" (same command and settings${secrets}${off})`;
  return { ...item, server: twin.name, action: 'same', reason, secrets: [] };
}

/** One item per entry, in file order. */
export function planImport(
  agent: AgentDefinition,
  servers: Readonly<Record<string, unknown>>,
  options: ImportOptions,
): ImportItem[] {
  const existing = new Set(options.known.map((server) => server.name));
  const taken = new Set(existing);
  return Object.entries(servers).map(([original, raw]) =>
    planEntry(agent, original, raw, taken, { ...options, existing }),
  );
}
