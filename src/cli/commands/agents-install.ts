import {
  applyInstall,
  applyUninstall,
  chooseLocation,
  COFFER_ENTRY,
  describeLocation,
  findAgent,
  planChanges,
  planInstall,
  planUninstall,
  readState,
  requireConfig,
  uninstallChanges,
  type InstallPlan,
  type ShimLaunch,
  type UninstallPlan,
} from '../../agents/index.js';
import type { CliContext } from '../cli-context.js';
import { agentContext, parseScope, shimLaunch } from './agents-shared.js';

export interface InstallFlags {
  scope: string;
  replace?: boolean;
  dryRun?: boolean;
}

function launchText(launch: ShimLaunch): string {
  const env = Object.entries(launch.env ?? {}).map(([name, value]) => ` (env ${name}=${value})`);
  return `${[launch.command, ...launch.args].join(' ')}${env.join('')}`;
}

function installLines(plan: InstallPlan, launch: ShimLaunch, dryRun: boolean): string[] {
  const would = dryRun ? 'would ' : '';
  const lines = [`${plan.agent.displayName}: ${describeLocation(plan.location)}`];
  if (plan.entry === 'unchanged') lines.push(`  = "${COFFER_ENTRY}" entry already up to date`);
  else {
    const verb = plan.entry === 'add' ? 'add' : 'update';
    lines.push(`  + ${would}${verb} "${COFFER_ENTRY}" entry: ${launchText(launch)}`);
  }
  for (const name of plan.removed)
    lines.push(`  - ${would}remove "${name}" (now served by Coffer)`);
  for (const kept of plan.kept) lines.push(`  ! keeping "${kept.name}": ${kept.reason}`);
  return lines;
}

/** `coffer agents install <agent> [--scope] [--replace] [--dry-run]`. */
export function install(context: CliContext, id: string, flags: InstallFlags): void {
  const agent = findAgent(id);
  const location = chooseLocation(agent, agentContext(context), parseScope(flags.scope));
  const { exists, document } = requireConfig(location);
  const launch = shimLaunch(context.env);
  const plan = planInstall({
    agent,
    location,
    document,
    exists,
    launch,
    replace: flags.replace === true,
    imports: readState(context.paths.home).imports,
  });
  const dryRun = flags.dryRun === true;
  const lines = installLines(plan, launch, dryRun);
  if (!planChanges(plan)) lines.push('Nothing to change.');
  else if (dryRun) lines.push('Dry run: nothing was changed (a backup is taken before any write).');
  else {
    const { backup } = applyInstall(context.paths.home, plan);
    lines.push(`Backed up the previous file as ${backup?.id ?? '?'}; wrote ${location.path}.`);
    lines.push(`Restart ${agent.displayName} to pick up the change.`);
  }
  context.stdout.write(`${lines.join('\n')}\n`);
}

function uninstallLines(plan: UninstallPlan, dryRun: boolean): string[] {
  const would = dryRun ? 'would ' : '';
  const lines = [`${plan.agent.displayName}: ${describeLocation(plan.location)}`];
  if (!uninstallChanges(plan))
    return [...lines, '  Coffer is not installed here; nothing to change.'];
  if (plan.exact && plan.after === undefined)
    lines.push(`  - ${would}remove the file Coffer created`);
  else if (plan.exact) lines.push(`  = ${would}restore the file exactly as it was before Coffer`);
  else if (plan.removedEntry) lines.push(`  - ${would}remove the "${COFFER_ENTRY}" entry`);
  if (!plan.exact && plan.record !== undefined && plan.record.backup_id === undefined)
    lines.push('  note: the file changed since the install; other changes are kept');
  for (const name of plan.restored) lines.push(`  + ${would}put back "${name}"`);
  return lines;
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
