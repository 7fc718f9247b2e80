import { COFFER_ENTRY, type InstallPlan } from './install-plan.js';
import { describeLocation } from './locations.js';
import type { RestorePlan } from './restore.js';
import type { ShimLaunch } from './types.js';
import { uninstallChanges, type UninstallPlan } from './uninstall.js';

/**
 * What an install or uninstall does to one file, one line per effect: printed by
 * `coffer agents install|uninstall` and shown by the UI's preview. `dryRun` words it as
 * what would happen.
 */

function launchText(launch: ShimLaunch): string {
  const env = Object.entries(launch.env ?? {}).map(([name, value]) => ` (env ${name}=${value})`);
  return `${[launch.command, ...launch.args].join(' ')}${env.join('')}`;
}

const WAS_HTTP = "(it reached Coffer over HTTP; the shim finds the daemon's port and token itself)";
const SAME_AS_SHIM = `it reaches Coffer over HTTP: the "${COFFER_ENTRY}" entry serves the same`;

/** How the caller's user asks for --replace (a flag on the CLI, a checkbox in the UI). */
const REPLACE_ON_CLI = 'install again with --replace';

export function installSummary(
  plan: InstallPlan,
  launch: ShimLaunch,
  dryRun: boolean,
  replaceHow = REPLACE_ON_CLI,
): string[] {
  const would = dryRun ? 'would ' : '';
  const lines: string[] = [];
  if (plan.entry === 'unchanged') lines.push(`= "${COFFER_ENTRY}" entry already up to date`);
  else {
    const verb = plan.entry === 'add' ? 'add' : 'update';
    const was = plan.overHttp.includes(COFFER_ENTRY) ? ` ${WAS_HTTP}` : '';
    lines.push(`+ ${would}${verb} "${COFFER_ENTRY}" entry: ${launchText(launch)}${was}`);
  }
  for (const name of plan.removed)
    lines.push(
      `- ${would}remove "${name}" (${plan.overHttp.includes(name) ? SAME_AS_SHIM : 'now served by Coffer'}${letGoText(plan, name)})`,
    );
  for (const kept of plan.kept) lines.push(`! keeping "${kept.name}": ${kept.reason}`);
  for (const name of plan.servedTwice)
    lines.push(
      `! "${name}" stays in this file and Coffer serves it too, so the agent lists its tools twice (to remove it here: ${replaceHow})`,
    );
  for (const name of plan.overHttp.filter((name) => !listed(plan, name)))
    lines.push(
      `! "${name}" reaches Coffer over HTTP, as the "${COFFER_ENTRY}" entry does, so the agent lists every tool twice (to remove it here: ${replaceHow})`,
    );
  for (const { location, what } of plan.narrower)
    lines.push(
      `! ${describeLocation(location)} has a "${COFFER_ENTRY}" entry of its own (${what}), which comes first where it applies: coffer agents install ${plan.agent.id} --scope ${location.scope} replaces it`,
    );
  return lines;
}

/** The harmless keys that leave with an entry, said as they go. */
function letGoText(plan: InstallPlan, name: string): string {
  const keys = plan.letGo.find((entry) => entry.name === name)?.keys;
  if (keys === undefined) return '';
  const they = keys.length === 1 ? 'it sets' : 'they set';
  return `; its ${keys.join(', ')} ${keys.length === 1 ? 'goes' : 'go'} with it: ${they} how ${plan.agent.displayName} treats the server, not the server`;
}

/** True when the plan's lines already say what happens to entry `name`. */
function listed(plan: InstallPlan, name: string): boolean {
  return name === COFFER_ENTRY || plan.removed.includes(name);
}

export function uninstallSummary(plan: UninstallPlan, dryRun: boolean): string[] {
  const would = dryRun ? 'would ' : '';
  if (!uninstallChanges(plan)) return ['Coffer is not installed here; nothing to change.'];
  const lines: string[] = [];
  if (plan.exact && plan.after === undefined)
    lines.push(`- ${would}remove the file Coffer created`);
  else if (plan.exact) lines.push(`= ${would}restore the file exactly as it was before Coffer`);
  else if (plan.removedEntry) lines.push(`- ${would}remove the "${COFFER_ENTRY}" entry`);
  if (!plan.exact && plan.record !== undefined && plan.record.backup_id === undefined)
    lines.push('note: the file changed since the install; other changes are kept');
  for (const name of plan.restored) lines.push(`+ ${would}put back "${name}"`);
  return lines;
}

/**
 * What a restore does to the file as it is now: every change made since the backup (by
 * Coffer or anyone) leaves it, and is kept as a new backup, the latest, so a plain
 * `coffer agents restore` brings it back. `safety`: that backup, once taken.
 */
export function restoreSummary(
  plan: RestorePlan,
  agentId: string,
  dryRun: boolean,
  safety?: string,
): string[] {
  const { backup } = plan;
  if (plan.before === plan.after)
    return ['  the file already matches this backup; nothing to change'];
  const action = backup.existed
    ? `restore ${backup.path}`
    : `remove ${backup.path} (it did not exist)`;
  const back = `coffer agents restore ${agentId} brings them back`;
  const lines = [
    dryRun ? `  would ${action}` : `  ${backup.existed ? 'restored' : 'removed'} ${backup.path}`,
  ];
  if (plan.before === undefined)
    lines.push(
      dryRun
        ? '  there is no file now, so there is nothing to keep'
        : '  there was no file, so nothing was kept',
    );
  else if (dryRun)
    lines.push(
      `  the file as it is now, with every change made to it since that backup (by Coffer or by anyone), would be kept as a new backup: ${back}`,
    );
  if (plan.undoesInstall)
    lines.push(
      `  the install that backup was taken before, and any later one, ${dryRun ? 'would count' : 'now count'} as undone: a later uninstall puts back nothing their --replace removed`,
    );
  if (dryRun) lines.push('Dry run: nothing was changed.');
  else if (safety !== undefined && plan.before !== undefined)
    lines.push(
      `The file as it was, with the changes since backup ${backup.id}, is kept as backup ${safety}: ${back}.`,
    );
  return lines;
}
