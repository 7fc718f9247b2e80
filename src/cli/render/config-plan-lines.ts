import type { ConfigImportPlan, ServerChange } from '../../domain/config-plan.js';
import type { Colors } from './colors.js';

function changeLines(change: ServerChange, colors: Colors): string[] {
  const head =
    change.action === 'add'
      ? colors.green(`+ ${change.server}: added`)
      : change.action === 'update'
        ? colors.yellow(
            `~ ${change.server}: ${change.fields.length === 0 ? 'switches' : change.fields.join(', ')} changed`,
          )
        : colors.dim(`= ${change.server}: unchanged`);
  return [
    head,
    ...change.capabilities.map(
      (item) => `    ${item.type} ${item.key}: ${item.enabled ? 'enabled' : 'disabled'}`,
    ),
  ];
}

/** `coffer config import`: one line per server, then the secrets still to set. */
export function renderImportPlan(plan: ConfigImportPlan, dryRun: boolean, colors: Colors): string {
  const lines = plan.changes.flatMap((change) => changeLines(change, colors));
  if (plan.changes.length === 0) lines.push('The file names no servers.');
  if (plan.kept.length > 0)
    lines.push(`Kept (registered here, not in the file): ${plan.kept.join(', ')}`);
  if (plan.missing_secrets.length > 0) {
    lines.push('', 'Secrets to set on this machine (values are never in the file):');
    lines.push(...plan.missing_secrets.map((secret) => `  ${secret.command}`));
  }
  const changed = plan.changes.some((change) => change.action !== 'unchanged');
  lines.push(
    '',
    dryRun
      ? 'Dry run: nothing was changed.'
      : changed
        ? 'Imported.'
        : 'Nothing to change: this configuration is already in place.',
  );
  return `${lines.join('\n')}\n`;
}
