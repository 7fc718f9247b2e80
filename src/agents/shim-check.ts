import { findCommand, isRunnableFile } from '../config/command-lookup.js';
import { agentStatuses, type AgentStatus } from './agent-status.js';
import { COFFER_ENTRY } from './install-plan.js';
import {
  isSkipped,
  type AgentContext,
  type AgentDefinition,
  type ConfigLocation,
} from './types.js';

/**
 * `coffer doctor`'s look at each agent Coffer is installed in: does the entry still run
 * a working shim? A checkout moved or a Node upgraded leaves the agent pointing at
 * files that are gone, and the agent only says "server failed to start".
 */
export interface ShimCheck {
  readonly agent: AgentDefinition;
  readonly location: ConfigLocation;
  /** undefined: the entry runs a shim that is there. */
  readonly problem: string | undefined;
  /** The file does not parse: nothing in it can be checked. */
  readonly unreadable: boolean;
}

export interface ShimCheckOptions {
  readonly isRunnable?: (path: string, platform: string) => boolean;
}

/** `statuses`: the agents' files as the caller read them, so that each is read once. */
export function checkShims(
  context: AgentContext,
  options: ShimCheckOptions = {},
  statuses: readonly AgentStatus[] = agentStatuses(context),
): ShimCheck[] {
  const checks: ShimCheck[] = [];
  for (const status of statuses) {
    for (const location of status.locations) {
      if (location.problem !== undefined)
        checks.push({
          agent: status.agent,
          location: location.location,
          problem: undefined,
          unreadable: true,
        });
      else if (location.installed)
        checks.push({
          agent: status.agent,
          location: location.location,
          problem: entryProblem(status.agent, location.entries[COFFER_ENTRY], context, options),
          unreadable: false,
        });
    }
  }
  return checks;
}

/** Where an installed entry is: agent, scope, file and servers key (see brokenShims). */
export function shimKey(agent: string, location: ConfigLocation): string {
  return JSON.stringify([agent, location.scope, location.path, location.serversKey]);
}

/** Why each installed entry that no longer runs does not, by shimKey. */
export function brokenShims(
  context: AgentContext,
  statuses: readonly AgentStatus[],
): ReadonlyMap<string, string> {
  const problems = new Map<string, string>();
  for (const check of checkShims(context, {}, statuses))
    if (check.problem !== undefined)
      problems.set(shimKey(check.agent.id, check.location), check.problem);
  return problems;
}

function entryProblem(
  agent: AgentDefinition,
  raw: unknown,
  context: AgentContext,
  options: ShimCheckOptions,
): string | undefined {
  const entry = agent.parseEntry(raw);
  if (isSkipped(entry) || entry.command === undefined) return 'its Coffer entry has no command';
  const runnable = options.isRunnable ?? isRunnableFile;
  const found = findCommand(entry.command, {
    platform: context.platform,
    // What the agent's own launch would search: the PATH it inherits, not a login shell's.
    searchPath: entry.env['PATH'] ?? context.env['PATH'],
    pathExt: context.env['PATHEXT'],
    cwd: context.cwd,
    isRunnable: runnable,
  });
  if (found === undefined) return `it runs ${entry.command}, which is not there`;
  const script = entry.args.find((arg) => /coffer(\.js)?$/.test(arg) && /[\\/]/.test(arg));
  if (script !== undefined && !runnableScript(script, context.platform, runnable))
    return `its Coffer script ${script} is not there (was the checkout moved?)`;
  return undefined;
}

/** A script is read by node, not executed: existing is enough, on every platform. */
function runnableScript(
  path: string,
  platform: string,
  runnable: (path: string, platform: string) => boolean,
): boolean {
  return runnable(path, 'win32') || runnable(path, platform);
}
