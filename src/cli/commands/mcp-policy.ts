import type { Command } from 'commander';
import { CofferError } from '../../domain/errors.js';
import { parseToolPolicy, toolPolicies, type ToolPolicy } from '../../domain/tool-policy.js';
import type { CliContext } from '../cli-context.js';
import { checkName } from './mcp-input.js';
import { serverPath } from './mcp-list.js';
import { ownNameOf } from './own-name.js';
import { unknownNameWarnings } from './unknown-names.js';

interface PolicyRow {
  readonly key: string;
  readonly policy: ToolPolicy | null;
  readonly destructive: boolean;
  readonly effective: ToolPolicy;
  readonly enabled: boolean;
}

interface PolicyView {
  readonly server: string;
  readonly destructive: ToolPolicy;
  readonly tools: readonly PolicyRow[];
}

interface PolicyFlags {
  tool?: string;
  destructive?: boolean;
  json?: boolean;
}

/** What to store for `value`: a policy, or `default` (the tool's own policy forgotten). */
function policyOrDefault(value: string): ToolPolicy | null {
  return value === 'default' ? null : parseToolPolicy(value, 'the policy');
}

function render(view: PolicyView): string {
  const lines = [`Destructive tools of "${view.server}": ${view.destructive}`];
  for (const row of view.tools) {
    const why = row.policy !== null ? 'set' : row.destructive ? 'destructive' : 'default';
    const off = row.enabled ? '' : '; switched off: refused';
    lines.push(`  ${row.effective.padEnd(5)} ${row.key} (${why}${off})`);
  }
  return `${lines.join('\n')}\n`;
}

async function setPolicy(context: CliContext, name: string, value: string, flags: PolicyFlags) {
  if ((flags.tool === undefined) === (flags.destructive !== true))
    throw new CofferError(
      'INVALID_INPUT',
      'Say what the policy is for: --tool <name> or --destructive',
      {
        hint: `e.g. \`coffer mcp policy ${name} --tool delete_file ask\``,
      },
    );
  const api = await context.api();
  if (flags.destructive === true) {
    const policy = parseToolPolicy(value, 'the destructive default');
    await api.post(serverPath(name, '/policies'), { destructive: policy });
    context.stdout.write(`Destructive tools of "${name}": ${policy}\n`);
    return;
  }
  const { key: tool, note } = ownNameOf(name, flags.tool ?? '', 'name');
  const policy = policyOrDefault(value);
  await api.post(serverPath(name, '/policies'), { tools: { [tool]: policy } });
  context.stdout.write(`Tool "${tool}" of "${name}": ${policy ?? 'as its annotations say'}\n`);
  if (note !== undefined) context.stdout.write(note);
  // The policy is set: a check that cannot be done is no reason to fail the command.
  const warnings = await unknownNameWarnings(api, name, [{ type: 'tool', keys: [tool] }]).catch(
    () => [],
  );
  for (const line of warnings) context.stderr.write(line);
}

/** `coffer mcp policy <name> [allow|ask|deny|default] [--tool T | --destructive] [--json]`. */
export function registerMcpPolicy(mcp: Command, context: CliContext): void {
  mcp
    .command('policy')
    .description(
      'show or set what runs without asking: allow, ask (an approval through the agent) or deny',
    )
    .argument('<name>', 'the server name')
    .argument('[policy]', `${toolPolicies.join(' | ')} | default (for --tool: forget its own)`)
    .option('--tool <name>', 'the policy of this tool')
    .option('--destructive', "the server's default for tools marked destructive (ask at first)")
    .option('--json', 'print JSON instead of lines')
    .action(async (name: string, value: string | undefined, flags: PolicyFlags) => {
      checkName(name);
      if (value !== undefined) return setPolicy(context, name, value, flags);
      const api = await context.api();
      const view = await api.get<PolicyView>(serverPath(name, '/policies'));
      context.stdout.write(
        flags.json === true ? `${JSON.stringify(view, null, 2)}\n` : render(view),
      );
    });
}
