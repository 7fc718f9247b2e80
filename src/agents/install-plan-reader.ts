import { readState } from './agent-state.js';
import { requireConfig } from './documents/load-document.js';
import { planInstall, type InstallPlan } from './install-plan.js';
import { narrowerCofferEntries } from './narrower-entries.js';
import type { AgentContext, AgentDefinition, ConfigLocation, ShimLaunch } from './types.js';

export interface InstallTarget {
  readonly cofferHome: string;
  readonly context: AgentContext;
  readonly agent: AgentDefinition;
  readonly location: ConfigLocation;
  readonly launch: ShimLaunch;
  readonly replace: boolean;
  /** The running daemon's HTTP port, when one runs (install-plan.ts). */
  readonly ownPort?: number | undefined;
  /** Coffer's servers and their switches, when known (AgentChangeOptions). */
  readonly cofferServers?: ReadonlyMap<string, boolean> | undefined;
}

/**
 * An install plan from what is on disk: the agent's file, what was imported from it, and
 * the agent's other scopes. The one way `coffer agents install` and the UI's preview
 * plan an install (planInstall itself is pure).
 */
export function readInstallPlan(target: InstallTarget): InstallPlan {
  const { agent, location, launch, ownPort } = target;
  const { exists, document } = requireConfig(location);
  return planInstall({
    agent,
    location,
    document,
    exists,
    launch,
    replace: target.replace,
    imports: readState(target.cofferHome).imports,
    narrower: narrowerCofferEntries(agent, target.context, location, agent.shimEntry(launch)),
    ...(ownPort === undefined ? {} : { ownPort }),
    ...(target.cofferServers === undefined ? {} : { cofferServers: target.cofferServers }),
  });
}
