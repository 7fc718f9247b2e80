import { loadConfig } from './documents/load-document.js';
import { sameJson } from './entry-fields.js';
import { COFFER_ENTRY } from './install-plan.js';
import {
  isSkipped,
  type AgentContext,
  type AgentDefinition,
  type ConfigLocation,
} from './types.js';

/**
 * A `coffer` entry of another kind in a scope that comes before the one being installed.
 * Agents read a narrower scope first (Claude Code: local, then project, then user), and
 * each catalog lists its scopes broadest first: an older `coffer` entry there (Coffer over
 * HTTP, added with `claude mcp add`, which writes the local scope by default) wins over
 * the shim entry wherever that scope applies, so the install alone would change nothing
 * the agent uses there.
 */
export interface NarrowerEntry {
  readonly location: ConfigLocation;
  /** Its URL, or its command line. */
  readonly what: string;
}

function describeEntry(agent: AgentDefinition, raw: unknown): string {
  const parsed = agent.parseEntry(raw);
  if (isSkipped(parsed)) return parsed.skip;
  return parsed.url ?? [parsed.command, ...parsed.args].join(' ');
}

export function narrowerCofferEntries(
  agent: AgentDefinition,
  context: AgentContext,
  installed: ConfigLocation,
  desired: unknown,
): NarrowerEntry[] {
  const all = agent.locations(context);
  const first = all.findIndex((location) => location.scope === installed.scope);
  const narrower = all.slice(first + 1).filter((location) => location.scope !== installed.scope);
  const found: NarrowerEntry[] = [];
  for (const location of narrower) {
    const loaded = loadConfig(location);
    // A malformed file is another command's to report (`coffer agents list`).
    if (loaded.state !== 'present') continue;
    const raw = loaded.document.servers(location.serversKey)?.[COFFER_ENTRY];
    if (raw !== undefined && !sameJson(raw, desired))
      found.push({ location, what: describeEntry(agent, raw) });
  }
  return found;
}
