import type {
  ConfigImportPlan,
  OAuthClientChange,
  PolicyChange,
  ServerChange,
} from '../../domain/config-plan.js';
import type { Colors } from './colors.js';

function policyLine(change: PolicyChange): string {
  const what = change.tool === null ? 'destructive tools' : `tool ${change.tool}`;
  const was = change.was === null ? 'added' : `was ${change.was}`;
  return `    policy ${what}: ${change.policy} (${was})`;
}

function clientLine(change: OAuthClientChange): string {
  const was = change.was === null ? 'added' : `was ${change.was}`;
  return `    oauth client id: ${change.client_id} (${was}; a client secret is never in the file)`;
}

function changedParts(change: ServerChange): string {
  return [
    ...change.fields,
    ...(change.capabilities.length > 0 ? ['switches'] : []),
    ...(change.policies.length > 0 ? ['policies'] : []),
    ...(change.oauth_client === undefined ? [] : ['oauth client']),
  ].join(', ');
}

function changeLines(change: ServerChange, colors: Colors): string[] {
  const head =
    change.action === 'add'
      ? colors.green(`+ ${change.server}: added`)
      : change.action === 'update'
        ? colors.yellow(`~ ${change.server}: ${changedParts(change)} changed`)
        : colors.dim(`= ${change.server}: unchanged`);
  return [
    head,
    ...change.capabilities.map(
      (item) => `    ${item.type} ${item.key}: ${item.enabled ? 'enabled' : 'disabled'}`,
    ),
    ...change.policies.map(policyLine),
    ...(change.oauth_client === undefined ? [] : [clientLine(change.oauth_client)]),
    ...change.notes.map((note) => colors.yellow(`    note: ${note}`)),
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
