import { CofferError } from '../domain/errors.js';
import type { ImportRecord } from './agent-state.js';
import { isAt } from './agent-state.js';
import type { ConfigDocument } from './documents/config-document.js';
import { entryFingerprint, sameJson } from './entry-fields.js';
import { keysThatMatter } from './harmless-keys.js';
import { isCofferShim } from './import-plan.js';
import type { NarrowerEntry } from './narrower-entries.js';
import { overHttpEntry } from './over-http-entry.js';
import { isSkipped, type AgentDefinition, type ConfigLocation, type ShimLaunch } from './types.js';

/**
 * What `coffer agents install` will change in one agent file: the `coffer` entry, and
 * with --replace the entries imported from that file. Pure: the plan carries the text
 * before and after, and an unchanged plan writes nothing (install is idempotent).
 */

export const COFFER_ENTRY = 'coffer';

export type EntryChange = 'add' | 'update' | 'unchanged';

export interface KeptEntry {
  readonly name: string;
  readonly reason: string;
}

export interface LetGo {
  readonly name: string;
  readonly keys: readonly string[];
}

export interface InstallPlan {
  readonly agent: AgentDefinition;
  readonly location: ConfigLocation;
  readonly exists: boolean;
  readonly before: string;
  readonly after: string;
  readonly entry: EntryChange;
  readonly removed: readonly string[];
  /** Removed entries' keys Coffer did not carry over, all on the agent's harmless list. */
  readonly letGo: readonly LetGo[];
  readonly kept: readonly KeptEntry[];
  /**
   * Without --replace: entries imported into Coffer that stay in this file, which
   * --replace would remove. The agent lists their tools twice (directly and through
   * Coffer), which nobody wants unless they chose it.
   */
  readonly servedTwice: readonly string[];
  /**
   * Entries that reach this daemon over HTTP (its `/mcp` or a server's endpoint). A
   * "coffer" entry among them is replaced by the shim entry; the others, beside the shim
   * entry, make the agent list every tool twice: --replace removes them (they are in
   * `removed` then, and uninstall puts them back).
   */
  readonly overHttp: readonly string[];
  /** `coffer` entries of other kinds in scopes the agent reads before this one. */
  readonly narrower: readonly NarrowerEntry[];
}

export function planChanges(plan: InstallPlan): boolean {
  return plan.before !== plan.after;
}

/** True when an entry runs `coffer shim` (whatever the paths), as install writes it. */
export function isCofferEntry(agent: AgentDefinition, raw: unknown): boolean {
  const parsed = agent.parseEntry(raw);
  return !isSkipped(parsed) && isCofferShim(parsed);
}

function entryUrl(agent: AgentDefinition, raw: unknown): string | undefined {
  const parsed = agent.parseEntry(raw);
  return isSkipped(parsed) ? undefined : parsed.url;
}

function ensureOurs(
  agent: AgentDefinition,
  location: ConfigLocation,
  current: unknown,
  ownPort: number | undefined,
): void {
  if (current === undefined || isCofferEntry(agent, current)) return;
  if (overHttpEntry(agent, current, ownPort) !== undefined) return;
  const named = `${location.path} already has a server named "${COFFER_ENTRY}"`;
  const url = entryUrl(agent, current);
  const elsewise = 'rename or remove that entry in the agent, then install again';
  if (url === undefined)
    throw new CofferError('SERVER_EXISTS', `${named} that does not run Coffer`, {
      hint: elsewise,
    });
  if (ownPort !== undefined)
    throw new CofferError(
      'SERVER_EXISTS',
      `${named} at ${url}, which is not this Coffer daemon (it serves http://127.0.0.1:${ownPort}/mcp)`,
      { hint: elsewise },
    );
  throw new CofferError(
    'SERVER_EXISTS',
    `${named} at ${url}, and no Coffer daemon runs to tell whether that is Coffer over HTTP`,
    {
      hint: `if it is, start Coffer (coffer start) and install again: the shim entry replaces it; otherwise ${elsewise}`,
    },
  );
}

interface Removal {
  readonly document: ConfigDocument;
  readonly removed: string[];
  readonly letGo: LetGo[];
  readonly kept: KeptEntry[];
}

/** Why Coffer cannot stand in for an imported entry now; undefined when it can. */
function notServed(
  record: ImportRecord,
  cofferServers: ReadonlyMap<string, boolean> | undefined,
): string | undefined {
  const enabled = cofferServers?.get(record.server);
  if (cofferServers === undefined || enabled === true) return undefined;
  if (enabled === undefined) return `Coffer no longer has "${record.server}"; import it again`;
  return `Coffer has "${record.server}" switched off (coffer mcp enable ${record.server}, then install --replace again)`;
}

function removeImported(document: ConfigDocument, input: PlanInstallInput): Removal {
  const { agent, location, imports, cofferServers } = input;
  const servers = document.servers(location.serversKey) ?? {};
  const result: Removal = { document, removed: [], letGo: [], kept: [] };
  let next = document;
  for (const record of imports.filter((candidate) => isAt(candidate, location))) {
    const raw = servers[record.original];
    if (raw === undefined || result.removed.includes(record.original)) continue;
    const unserved = notServed(record, cofferServers);
    const leftovers = record.not_carried_over ?? [];
    const matter = keysThatMatter(agent, raw, leftovers);
    if (unserved !== undefined) {
      result.kept.push({ name: record.original, reason: unserved });
    } else if (entryFingerprint(raw) !== record.fingerprint) {
      result.kept.push({
        name: record.original,
        reason: 'it changed since it was imported; import it again',
      });
    } else if (record.secrets_pending.length > 0) {
      const names = record.secrets_pending.join(', ');
      result.kept.push({
        name: record.original,
        reason: `its secrets (${names}) are not stored in Coffer yet`,
      });
    } else if (matter.length > 0) {
      // The agent's entry still does what the server in Coffer cannot: taking it out loses it.
      result.kept.push({
        name: record.original,
        reason: `Coffer did not carry over its ${matter.join(', ')} (see the import's notes); remove it by hand once Coffer's server works without them`,
      });
    } else {
      next = next.withoutServer(location.serversKey, record.original);
      result.removed.push(record.original);
      if (leftovers.length > 0) result.letGo.push({ name: record.original, keys: leftovers });
    }
  }
  return { ...result, document: next };
}

export interface PlanInstallInput {
  readonly agent: AgentDefinition;
  readonly location: ConfigLocation;
  readonly document: ConfigDocument;
  readonly exists: boolean;
  readonly launch: ShimLaunch;
  readonly replace: boolean;
  readonly imports: readonly ImportRecord[];
  /** The running daemon's HTTP port, when one runs: entries that reach it are Coffer too. */
  readonly ownPort?: number;
  /** See narrower-entries.ts: said, never changed by this plan. */
  readonly narrower?: readonly NarrowerEntry[];
  /** See AgentChangeOptions.cofferServers; absent: not known, nothing kept for it. */
  readonly cofferServers?: ReadonlyMap<string, boolean>;
}

export function planInstall(input: PlanInstallInput): InstallPlan {
  const { agent, location, document, ownPort } = input;
  const servers = document.servers(location.serversKey) ?? {};
  const current = servers[COFFER_ENTRY];
  ensureOurs(agent, location, current, ownPort);
  const desired = agent.shimEntry(input.launch);
  let entry: EntryChange = 'unchanged';
  let next = document;
  if (current === undefined || !sameJson(current, desired)) {
    entry = current === undefined ? 'add' : 'update';
    next = next.withServer(location.serversKey, COFFER_ENTRY, desired);
  }
  // A disabled one lists nothing twice; the "coffer" entry is replaced whatever its switch.
  const overHttp = Object.keys(servers).filter((name) => {
    const entry = overHttpEntry(agent, servers[name], ownPort);
    return entry !== undefined && (name === COFFER_ENTRY || entry.enabled);
  });
  const others = overHttp.filter((name) => name !== COFFER_ENTRY);
  const removal = removeImported(next, input);
  const replaced = others.reduce(
    (document, name) => document.withoutServer(location.serversKey, name),
    removal.document,
  );
  const replace = input.replace;
  return {
    agent,
    location,
    exists: input.exists,
    before: document.text,
    after: (replace ? replaced : next).text,
    entry,
    removed: replace ? [...new Set([...removal.removed, ...others])] : [],
    letGo: replace ? removal.letGo : [],
    kept: replace ? removal.kept : [],
    servedTwice: replace ? [] : removal.removed,
    overHttp,
    narrower: input.narrower ?? [],
  };
}
