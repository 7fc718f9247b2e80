import Table from 'cli-table3';
import {
  applyRestore,
  findAgent,
  listBackups,
  planRestore,
  restoreSummary,
  type BackupInfo,
} from '../../agents/index.js';
import type { CliContext } from '../cli-context.js';
import { colorsFor } from '../render/colors.js';
import { parseScope, writeJson } from './agents-shared.js';

function renderBackups(context: CliContext, backups: readonly BackupInfo[]): string {
  if (backups.length === 0)
    return 'No backups yet: Coffer takes one before it changes an agent file.\n';
  const colors = colorsFor(context.stdout, context.env);
  const table = new Table({
    head: ['id', 'agent', 'before', 'file'].map((h) => colors.bold(h)),
    style: { head: [], border: [] },
  });
  for (const backup of backups) {
    const file = backup.existed ? backup.path : `${backup.path} ${colors.dim('(no file yet)')}`;
    table.push([backup.id, backup.agent, backup.reason, file]);
  }
  return `${table.toString()}\n`;
}

export interface RestoreFlags {
  backup?: string;
  scope?: string;
  dryRun?: boolean;
}

/** `coffer agents restore <agent> [--backup ID] [--scope] [--dry-run]`. */
export function restore(context: CliContext, id: string, flags: RestoreFlags): void {
  const agent = findAgent(id);
  const plan = planRestore(context.paths.home, agent, {
    ...(flags.backup === undefined ? {} : { backupId: flags.backup }),
    ...(flags.scope === undefined ? {} : { scope: parseScope(flags.scope) }),
  });
  const { backup } = plan;
  const head = `${agent.displayName}: backup ${backup.id}, taken before ${backup.reason}`;
  const dryRun = flags.dryRun === true;
  const safety =
    dryRun || plan.before === plan.after ? undefined : applyRestore(context.paths.home, plan);
  const lines = [head, ...restoreSummary(plan, agent.id, dryRun, safety?.id)];
  context.stdout.write(`${lines.join('\n')}\n`);
}

/** `coffer agents backups [agent] [--json]`. */
export function showBackups(
  context: CliContext,
  id: string | undefined,
  options: { json?: boolean },
) {
  const backups = listBackups(context.paths.home, id === undefined ? undefined : findAgent(id).id);
  if (options.json === true) return writeJson(context, { backups });
  context.stdout.write(renderBackups(context, backups));
}
