import type { Command } from 'commander';
import { CofferError } from '../../domain/errors.js';
import type { CliContext } from '../cli-context.js';
import { colorsFor } from '../render/colors.js';
import { reviewLines, type ReviewRow } from '../render/review-lines.js';
import { checkName } from './mcp-input.js';
import { serverPath } from './mcp-list.js';
import { ownNameOf } from './own-name.js';

interface ReviewFlags {
  accept?: boolean;
  tool?: string;
  json?: boolean;
}

async function accept(context: CliContext, name: string, flags: ReviewFlags): Promise<void> {
  const api = await context.api();
  const own = flags.tool === undefined ? undefined : ownNameOf(name, flags.tool, 'name');
  const body = own === undefined ? {} : { tool: own.key };
  const answer = await api.post<{ accepted: string[] }>(serverPath(name, '/reviews'), body);
  if (flags.json === true) {
    context.stdout.write(`${JSON.stringify(answer, null, 2)}\n`);
    return;
  }
  const { accepted } = answer;
  context.stdout.write(
    accepted.length === 0
      ? `No tool of "${name}" is held back: nothing to accept.\n`
      : `Accepted ${accepted.join(', ')} of "${name}": listed again.\n`,
  );
  if (own?.note !== undefined) context.stdout.write(own.note);
}

/** `coffer mcp review <name> [--accept [--tool T]] [--json]`. */
export function registerMcpReview(mcp: Command, context: CliContext): void {
  mcp
    .command('review')
    .description(
      'show tools held back because their definition changed since you allowed them, and accept them',
    )
    .argument('<name>', 'the server name')
    .option('--accept', 'accept the changed definitions: the tools are listed again')
    .option('--tool <name>', 'with --accept: only this tool')
    .option('--json', 'print JSON instead of lines')
    .action(async (name: string, flags: ReviewFlags) => {
      checkName(name);
      if (flags.accept === true) return accept(context, name, flags);
      if (flags.tool !== undefined)
        throw new CofferError('INVALID_INPUT', '--tool goes with --accept', {
          hint: `e.g. \`coffer mcp review ${name} --accept --tool ${flags.tool}\``,
        });
      const api = await context.api();
      const view = await api.get<{ server: string; tools: ReviewRow[] }>(
        serverPath(name, '/reviews'),
      );
      context.stdout.write(
        flags.json === true
          ? `${JSON.stringify(view, null, 2)}\n`
          : reviewLines(name, view.tools, colorsFor(context.stdout, context.env)),
      );
    });
}
