import type { Transport } from '../domain/server-definition.js';
import { isObject, stringField, stringList, stringMap, type JsonObject } from './entry-fields.js';
import type { AgentServer, ParsedEntry, ShimLaunch } from './types.js';

/**
 * The server-entry shape most agents share (`command`/`args`/`env` or a URL with
 * headers), with the few places where they differ described by a dialect.
 */
export interface EntryDialect {
  /** Keys that hold a remote URL; `transport` is what the key itself implies. */
  readonly urlKeys: readonly { readonly key: string; readonly transport?: Transport }[];
  readonly headersKey: string;
  /** The transport of a URL entry that says nothing (Cline reads it as SSE). */
  readonly defaultRemote?: Transport;
  /** Advice for keys Coffer cannot carry over, keyed by the agent's key name. */
  readonly hints?: Readonly<Record<string, string>>;
}

export const standardDialect: EntryDialect = { urlKeys: [{ key: 'url' }], headersKey: 'headers' };

const TYPE_KEYS = ['type', 'transport', 'transportType'];
const COMMON_KEYS = ['command', 'args', 'env', 'cwd', 'disabled', 'enabled', ...TYPE_KEYS];

const TRANSPORT_NAMES: Readonly<Record<string, Transport>> = {
  stdio: 'stdio',
  http: 'http',
  streamablehttp: 'http',
  'streamable-http': 'http',
  streamable_http: 'http',
  sse: 'sse',
};

type TypeReading = { transport?: Transport } | { unsupported: string };

function readType(entry: JsonObject): TypeReading {
  for (const key of TYPE_KEYS) {
    const value = stringField(entry, key);
    if (value === undefined) continue;
    const transport = TRANSPORT_NAMES[value.toLowerCase()];
    return transport === undefined ? { unsupported: value } : { transport };
  }
  return {};
}

/** A URL's path tells the two remote transports apart when nothing else does. */
export function guessRemoteTransport(url: string): Transport {
  try {
    return /\/sse\/?$/i.test(new URL(url).pathname) ? 'sse' : 'http';
  } catch {
    return 'http';
  }
}

function readUrl(entry: JsonObject, dialect: EntryDialect) {
  for (const { key, transport } of dialect.urlKeys) {
    const url = stringField(entry, key);
    if (url !== undefined) return { url, implied: transport };
  }
  return undefined;
}

function leftoverKeys(entry: JsonObject, dialect: EntryDialect): string[] {
  const known = new Set([
    ...COMMON_KEYS,
    dialect.headersKey,
    ...dialect.urlKeys.map((item) => item.key),
  ]);
  return Object.keys(entry).filter((key) => !known.has(key));
}

function leftoverNotes(leftovers: readonly string[], dialect: EntryDialect): string[] {
  const notes: string[] = [];
  const plain: string[] = [];
  for (const key of leftovers) {
    const hint = dialect.hints?.[key];
    if (hint === undefined) plain.push(key);
    else notes.push(`"${key}" is not carried over: ${hint}`);
  }
  if (plain.length > 0) notes.push(`not carried over: ${plain.join(', ')}`);
  return notes;
}

function chooseTransport(
  hasCommand: boolean,
  remote: { url: string; implied: Transport | undefined } | undefined,
  declared: Transport | undefined,
  dialect: EntryDialect,
): Transport {
  if (remote === undefined) return 'stdio';
  if (hasCommand && (declared === undefined || declared === 'stdio')) return 'stdio';
  if (declared !== undefined && declared !== 'stdio') return declared;
  return remote.implied ?? dialect.defaultRemote ?? guessRemoteTransport(remote.url);
}

/** Reads one entry of the shared shape; anything unusable becomes a SkippedEntry. */
export function readEntry(raw: unknown, dialect: EntryDialect = standardDialect): ParsedEntry {
  if (!isObject(raw)) return { skip: 'the entry is not an object', malformed: true };
  const type = readType(raw);
  if ('unsupported' in type) return { skip: `transport "${type.unsupported}" is not supported` };
  const command = stringField(raw, 'command');
  const remote = readUrl(raw, dialect);
  if (command === undefined && remote === undefined)
    return { skip: 'the entry has neither a command nor a URL', malformed: true };
  const transport = chooseTransport(command !== undefined, remote, type.transport, dialect);
  const dropped = leftoverKeys(raw, dialect);
  const notes = leftoverNotes(dropped, dialect);
  const lost = dropped.length === 0 ? {} : { dropped };
  const enabled = raw['disabled'] !== true && raw['enabled'] !== false;
  if (transport === 'stdio') {
    const cwd = stringField(raw, 'cwd');
    if (remote !== undefined) notes.push('the entry also has a URL; it runs the command');
    return {
      transport,
      command: command ?? '',
      args: stringList(raw, 'args', notes),
      env: stringMap(raw, 'env', notes),
      ...(cwd === undefined ? {} : { cwd }),
      headers: {},
      enabled,
      notes,
      ...lost,
    };
  }
  return {
    ...remoteServer(raw, transport, remote?.url ?? '', dialect, { enabled, notes }),
    ...lost,
  };
}

function remoteServer(
  raw: JsonObject,
  transport: Transport,
  url: string,
  dialect: EntryDialect,
  state: { enabled: boolean; notes: string[] },
): AgentServer {
  const { notes } = state;
  if (raw['env'] !== undefined) notes.push('"env" applies to local servers; ignored');
  return {
    transport,
    url,
    args: [],
    env: {},
    headers: stringMap(raw, dialect.headersKey, notes),
    enabled: state.enabled,
    notes,
  };
}

/** `{command, args, env?}` plus whatever fixed fields the agent wants (e.g. type: stdio). */
export function shimEntry(
  launch: ShimLaunch,
  extra: Readonly<Record<string, unknown>> = {},
): Record<string, unknown> {
  return {
    ...extra,
    command: launch.command,
    args: [...launch.args],
    ...(launch.env === undefined ? {} : { env: { ...launch.env } }),
  };
}
