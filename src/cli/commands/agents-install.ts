import {
  applyInstall,
  applyUninstall,
  chooseLocation,
  describeLocation,
  findAgent,
  planChanges,
  planUninstall,
  readInstallPlan,
  installSummary,
  uninstallSummary,
  type InstallPlan,
  type ShimLaunch,
  type UninstallPlan,
} from '../../agents/index.js';
import { findDaemon } from '../../discovery/index.js';
import type { ApiClient } from '../api-client.js';
import type { CliContext } from '../cli-context.js';
import { agentContext, knownServers, parseScope, shimLaunch } from './agents-shared.js';

export interface InstallFlags {
  scope: string;
  replace?: boolean;
  dryRun?: boolean;
}

function installLines(plan: InstallPlan, launch: ShimLaunch, dryRun: boolean): string[] {
  const header = `${plan.agent.displayName}: ${describeLocation(plan.location)}`;
  return [header, ...installSummary(plan, launch, dryRun).map((line) => `  ${line}`)];
}

async function cofferServers(api: ApiClient): Promise<ReadonlyMap<string, boolean>> {
  const servers = await knownServers(api);
  return new Map(servers.map(({ name, enabled }) => [name, enabled !== false]));
}

/**
 * `coffer agents install <agent> [--scope] [--replace] [--dry-run]`. Without --replace it
 * needs no daemon; a running one's port tells which entries reach Coffer over HTTP
 * already. --replace asks the daemon which servers it has and serves.
 */
export async function install(context: CliContext, id: string, flags: InstallFlags): Promise<void> {
  const agent = findAgent(id);
  const agents = agentContext(context);
  const location = chooseLocation(agent, agents, parseScope(flags.scope));
  const launch = shimLaunch(context.env);
  const replace = flags.replace === true;
  // Only --replace takes entries out, and only for servers Coffer serves: ask the daemon,
  // whose port then comes with it; otherwise a running daemon's port, if any.
  const api = replace ? await context.api() : undefined;
  const plan = readInstallPlan({
    cofferHome: context.paths.home,
    context: agents,
    agent,
    location,
    launch,
    replace,
    ownPort: api?.daemon.port ?? (await findDaemon(context.paths))?.port,
    cofferServers: api === undefined ? undefined : await cofferServers(api),
  });
  const dryRun = flags.dryRun === true;
  const lines = installLines(plan, launch, dryRun);
  if (!planChanges(plan)) lines.push('Nothing to change.');
  else if (dryRun) lines.push('Dry run: nothing was changed (a backup is taken before any write).');
  else {
    const { backup } = applyInstall(context.paths.home, plan);
    lines.push(
      backup?.existed === false
        ? `Created ${location.path} (there was no file before; backup ${backup.id} records that, and uninstall removes it).`
        : `Backed up the previous file as ${backup?.id ?? '?'}; wrote ${location.path}.`,
    );
    lines.push(`Restart ${agent.displayName} to pick up the change.`);
  }
  context.stdout.write(`${lines.join('\n')}\n`);
}

function uninstallLines(plan: UninstallPlan, dryRun: boolean): string[] {
  const header = `${plan.agent.displayName}: ${describeLocation(plan.location)}`;
  return [header, ...uninstallSummary(plan, dryRun).map((line) => `  ${line}`)];
}

/** `coffer agents uninstall <agent> [--scope] [--dry-run]`. */
export function uninstall(context: CliContext, id: string, flags: InstallFlags): void {
  const agent = findAgent(id);
  const location = chooseLocation(agent, agentContext(context), parseScope(flags.scope));
  const plan = planUninstall(context.paths.home, agent, location);
  const dryRun = flags.dryRun === true;
  const lines = uninstallLines(plan, dryRun);
  if (dryRun) lines.push('Dry run: nothing was changed.');
  else {
    const backup = applyUninstall(context.paths.home, plan);
    if (backup !== undefined) {
      lines.push(`Backed up the previous file as ${backup.id}.`);
      lines.push(`Restart ${agent.displayName} to pick up the change.`);
    }
  }
  context.stdout.write(`${lines.join('\n')}\n`);
}
