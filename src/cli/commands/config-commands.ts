import { urlCredentials } from '../../domain/credential-shapes.js';
import { readFileSync } from 'node:fs';
import { writeFileAtomic } from '../../config/user-file.js';
import { writeProblem } from '../../config/write-problems.js';
import type { Command } from 'commander';
import { parseConfigFile } from '../../domain/config-file.js';
import type { ConfigImportPlan } from '../../domain/config-plan.js';
import { CofferError } from '../../domain/errors.js';
import { decodeJsonText } from '../../domain/json-text.js';
import type { CliContext } from '../cli-context.js';
import { colorsFor } from '../render/colors.js';
import { renderImportPlan } from '../render/config-plan-lines.js';
import { warnPlannedProblems } from './start-problems.js';

/** The definitions an import adds or changes the launch of (the daemon took the file). */
function launchesOf(document: unknown, plan: ConfigImportPlan) {
  const launching = new Set(
    plan.changes
      .filter(({ action, fields }) => action === 'add' || fields.includes('command'))
      .map(({ server }) => server),
  );
  return parseConfigFile(document)
    .definitions.filter(({ name }) => launching.has(name))
    .map((definition) => ({ server: definition.name, definition }));
}

/**
 * Secrets leave by name only, but a credential some servers take only in their URL (a
 * password before the host, an `api_key` parameter) is part of the URL, and so of the
 * export: said, so the user knows what the file holds before it goes to dotfiles.
 */
function urlCredentialWarnings(config: unknown): string[] {
  const servers = (config as { servers?: Record<string, { url?: unknown }> } | null)?.servers;
  return Object.entries(servers ?? {}).flatMap(([name, server]) => {
    const url = typeof server.url === 'string' ? server.url : undefined;
    const found = urlCredentials(url);
    return found.length === 0
      ? []
      : [
          `coffer: warning: the URL of ${name} holds a credential (${found.join(', ')}), and the export holds it too: keep the file private`,
        ];
  });
}

function readConfigFile(file: string): unknown {
  let bytes: Buffer;
  try {
    bytes = readFileSync(file);
  } catch (error) {
    throw new CofferError('NOT_FOUND', `Cannot read ${file}`, {
      hint: 'give the path of a file written by `coffer config export`',
      cause: error,
    });
  }
  const decoded = decodeJsonText(bytes, 'The file');
  if (!decoded.ok)
    throw new CofferError('INVALID_INPUT', `${file}: ${decoded.message}`, {
      hint: 'docs/CONFIG.md describes the format',
    });
  refuseAgentConfig(file, decoded.value);
  return decoded.value;
}

/** Writes the export as an agent's file is written (user-file.ts), or says why it cannot. */
function writeExport(file: string, text: string): void {
  try {
    writeFileAtomic(file, text, { createFolder: false });
  } catch (error) {
    throw new CofferError('INVALID_INPUT', `Cannot write ${file}: ${writeProblem(error)}`, {
      hint: 'give a path in a folder you can write to, or leave --file out to print it',
    });
  }
}

/** The agent whose format reads a file keyed so (docs/AGENTS.md), for the usual keys. */
const AGENT_FORMATS: readonly (readonly [string, string])[] = [
  ['mcpServers', 'claude-desktop'],
  ['servers', 'vscode'],
  ['context_servers', 'zed'],
];

/**
 * A server's README gives a `claude_desktop_config.json` snippet, not an export of Coffer's:
 * say which command reads it, rather than that `coffer_config` is missing.
 */
function refuseAgentConfig(file: string, value: unknown): void {
  if (typeof value !== 'object' || value === null || 'coffer_config' in value) return;
  const format = AGENT_FORMATS.find(([key]) => key in value);
  if (format === undefined) return;
  const [key, agent] = format;
  throw new CofferError(
    'INVALID_INPUT',
    `${file} is an agent's MCP configuration ("${key}"), not a file written by \`coffer config export\``,
    { hint: `import its servers with: coffer agents import ${agent} --file ${file}` },
  );
}

/** `coffer config export [--file F]` and `coffer config import <file> [--dry-run] [--json]`. */
export function registerConfigCommands(program: Command, context: CliContext): void {
  const config = program
    .command('config')
    .description('keep your servers, switches and policies in a file (dotfiles): export, import');

  config
    .command('export')
    .description('print the configuration as JSON (secrets by name only, never values)')
    .option('--file <path>', 'write it to this file instead of stdout')
    .action(async (options: { file?: string }) => {
      const api = await context.api();
      const config = await api.get<unknown>('/config');
      const text = `${JSON.stringify(config, null, 2)}\n`;
      if (options.file === undefined) context.stdout.write(text);
      else {
        writeExport(options.file, text);
        context.stderr.write(`Wrote ${options.file}\n`);
      }
      for (const line of urlCredentialWarnings(config)) context.stderr.write(`${line}\n`);
    });

  config
    .command('import')
    .description('add or update the servers of a config file; --dry-run shows the changes only')
    .argument('<file>', 'a file written by `coffer config export`')
    .option('--dry-run', 'show what would change, change nothing')
    .option('--json', 'print the plan as JSON')
    .action(async (file: string, options: { dryRun?: boolean; json?: boolean }) => {
      const document = readConfigFile(file);
      const api = await context.api();
      const query = options.dryRun === true ? '?dry_run=1' : '';
      const plan = await api.post<ConfigImportPlan & { dry_run: boolean }>(
        `/config/import${query}`,
        document,
      );
      context.stdout.write(
        options.json === true
          ? `${JSON.stringify(plan, null, 2)}\n`
          : renderImportPlan(plan, plan.dry_run, colorsFor(context.stdout, context.env)),
      );
      await warnPlannedProblems(context, api, launchesOf(document, plan));
    });
}
