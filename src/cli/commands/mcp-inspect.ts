import type { Command } from 'commander';
import { CofferError, isErrorCode } from '../../domain/errors.js';
import type { ConnectionTestResult, ServerCapabilities } from '../../domain/ports.js';
import type { CliContext } from '../cli-context.js';
import { CliExit, ExitCode } from '../output.js';
import { capabilitySections } from '../render/capability-tree.js';
import { countsText, plural } from '../render/count-words.js';
import { checkName } from './mcp-input.js';
import { serverPath } from './mcp-list.js';

/** "tools", "tools and prompts", "tools, prompts and resources". */
function joined(titles: readonly string[]): string {
  return titles.length < 2
    ? (titles[0] ?? '')
    : `${titles.slice(0, -1).join(', ')} and ${titles.at(-1) ?? ''}`;
}

/**
 * "3 tools, 1 prompt, …"; lists that failed are reported on stderr and fail the command,
 * each reason once with the lists it stopped (a server that cannot start fails them all).
 */
function reportRefresh(context: CliContext, name: string, capabilities: ServerCapabilities): void {
  const parts: string[] = [];
  const failures = new Map<string, string[]>();
  for (const [field, title] of capabilitySections) {
    const listing = capabilities[field];
    const noun = title.replace(/s$/, '');
    if (listing.status === 'ok') parts.push(plural(listing.items.length, noun));
    else if (listing.status === 'not-supported') parts.push(`${title} not supported`);
    else {
      parts.push(`${title} could not be loaded`);
      const titles = failures.get(listing.error.message) ?? [];
      failures.set(listing.error.message, [...titles, title]);
    }
  }
  context.stdout.write(`Refreshed "${name}": ${parts.join(', ')}\n`);
  for (const [message, titles] of failures)
    context.stderr.write(`coffer: could not load the ${joined(titles)} of "${name}": ${message}\n`);
  if (failures.size > 0) throw new CliExit(ExitCode.UNAVAILABLE);
}

function reportTest(context: CliContext, name: string, result: ConnectionTestResult): void {
  if (!result.ok) {
    const code =
      result.error !== undefined && isErrorCode(result.error.code)
        ? result.error.code
        : 'UPSTREAM_UNAVAILABLE';
    throw new CofferError(
      code,
      `Connection test of "${name}" failed: ${result.error?.message ?? 'no answer'}`,
      { hint: result.error?.hint ?? `see logs/upstream-${name}.log in the Coffer home` },
    );
  }
  const what = result.counts === undefined ? '' : `: ${countsText(result.counts)}`;
  context.stdout.write(`"${name}" answered in ${result.latency_ms} ms${what}\n`);
}

/** `coffer mcp refresh <name>` and `coffer mcp test <name>`. */
export function registerMcpInspect(mcp: Command, context: CliContext): void {
  mcp
    .command('refresh')
    .description('drop cached lists and connections of a server and list its capabilities again')
    .argument('<name>', 'the server name')
    .option('--json', 'print the capabilities as JSON')
    .action(async (name: string, options: { json?: boolean }) => {
      checkName(name);
      const api = await context.api();
      const capabilities = await api.post<ServerCapabilities>(serverPath(name, '/refresh'));
      if (options.json === true) {
        context.stdout.write(`${JSON.stringify(capabilities, null, 2)}\n`);
        return;
      }
      reportRefresh(context, name, capabilities);
    });

  mcp
    .command('test')
    .description('connect to a server afresh (live connections untouched) and report how it went')
    .argument('<name>', 'the server name')
    .option('--json', 'print the result as JSON')
    .action(async (name: string, options: { json?: boolean }) => {
      checkName(name);
      const api = await context.api();
      const result = await api.post<ConnectionTestResult>(serverPath(name, '/test'));
      if (options.json === true) context.stdout.write(`${JSON.stringify(result, null, 2)}\n`);
      if (options.json !== true || !result.ok) reportTest(context, name, result);
    });
}
