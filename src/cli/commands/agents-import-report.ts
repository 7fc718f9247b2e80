import { maskedUrl } from '../../domain/credential-shapes.js';
import type { ImportItem } from '../../agents/index.js';
import type { ImportOutcome } from '../../domain/import-item-view.js';
import type { ServerDefinition } from '../../domain/server-definition.js';

/**
 * How `coffer agents import` describes each entry, before (--dry-run) and after. Secret
 * values are never printed: a secret shows as `NAME=***`.
 */

function target(definition: ServerDefinition): string {
  if (definition.transport === 'stdio')
    return `stdio: ${[definition.command ?? '', ...definition.args].join(' ')}`;
  // A credential some URLs carry is not printed in a report the user did not ask it in.
  return `${definition.transport}: ${maskedUrl(definition.url ?? '')}`;
}

function detailLines(item: ImportItem): string[] {
  const lines: string[] = [];
  const definition = item.definition;
  if (definition !== undefined) {
    for (const [name, value] of Object.entries(definition.env)) lines.push(`env ${name}=${value}`);
    for (const [name, value] of Object.entries(definition.headers))
      lines.push(`header ${name}: ${value}`);
    if (definition.cwd !== undefined) lines.push(`cwd ${definition.cwd}`);
    if (!definition.enabled) lines.push('disabled in the agent: added disabled');
  }
  for (const secret of item.secrets) {
    const shown = secret.kind === 'env' ? `${secret.name}=***` : `${secret.name}: ***`;
    lines.push(`secret ${secret.kind} ${shown} (to the keychain)`);
  }
  for (const note of item.notes) lines.push(`note: ${note}`);
  return lines;
}

function headline(item: ImportItem, outcome: ImportOutcome): string {
  const name = item.original === item.server ? item.server : `${item.original} → ${item.server}`;
  switch (item.action) {
    case 'skip':
      return `  - ${item.original}: skipped, ${item.reason ?? ''}`;
    case 'same':
      return `  = ${item.original}: nothing to add, ${item.reason ?? ''}`;
    case 'clash':
      return `  = ${name}: skipped, ${item.reason ?? ''}`;
    case 'invalid':
      return `  ! ${name}: cannot import, ${item.reason ?? ''}`;
    case 'add':
      break;
  }
  const what = item.definition === undefined ? '' : ` (${target(item.definition)})`;
  switch (outcome.kind) {
    case 'planned':
      return `  + ${name}: would add${what}`;
    case 'added':
      return `  + ${name}: added${what}`;
    case 'failed':
      return `  ! ${name}: failed, ${outcome.message}`;
  }
}

export function describeItem(item: ImportItem, outcome: ImportOutcome): string {
  const details = detailLines(item).map((line) => `      ${line}`);
  const pending =
    outcome.kind === 'added' && outcome.pending.length > 0
      ? [
          `      pending: the daemon did not store ${outcome.pending.join(', ')}; the agent file keeps them`,
        ]
      : [];
  return [headline(item, outcome), ...details, ...pending].join('\n');
}
