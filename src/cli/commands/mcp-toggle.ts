import type { Command } from 'commander';
import type { CapabilityType } from '../../domain/capability.js';
import { CofferError } from '../../domain/errors.js';
import type { CliContext } from '../cli-context.js';
import type { ServerView } from '../render/server-table.js';
import { checkName, collect } from './mcp-input.js';
import { ownNameOf } from './own-name.js';
import { NOUN, unknownNameWarnings } from './unknown-names.js';
import { serverPath } from './mcp-list.js';
import { deletedLine, storedSecretsOf } from './stored-secrets.js';

interface ToggleFlags {
  tool: string[];
  prompt: string[];
  resource: string[];
}

interface ToggleGroup {
  readonly type: CapabilityType;
  readonly keys: string[];
}

/**
 * `--resource` takes both URIs and URI templates (the domain's toggleFlag). A template
 * is told by its "{": RFC 3986 does not allow a bare brace in a URI, RFC 6570 needs one.
 */
export function toggleGroups(flags: ToggleFlags): ToggleGroup[] {
  const groups: ToggleGroup[] = [
    { type: 'tool', keys: flags.tool },
    { type: 'prompt', keys: flags.prompt },
    { type: 'resource', keys: flags.resource.filter((key) => !key.includes('{')) },
    { type: 'resource_template', keys: flags.resource.filter((key) => key.includes('{')) },
  ];
  for (const group of groups) {
    if (group.keys.some((key) => key === '')) {
      throw new CofferError(
        'INVALID_INPUT',
        `An empty --${group.type.split('_')[0]} name was given`,
        {
          hint: 'e.g. `coffer mcp disable files --tool write_file`',
        },
      );
    }
  }
  return groups.filter((group) => group.keys.length > 0);
}

/**
 * The groups with every key as the server's own (ownNameOf), and the notes of the keys
 * that were given as agents see them.
 */
function ownKeys(server: string, groups: readonly ToggleGroup[]) {
  const notes: string[] = [];
  const own = groups.map((group) => ({
    type: group.type,
    keys: group.keys.map((given) => {
      const kind = group.type === 'tool' || group.type === 'prompt' ? 'name' : 'uri';
      const { key, note } = ownNameOf(server, given, kind);
      if (note !== undefined) notes.push(note);
      return key;
    }),
  }));
  return { groups: own, notes };
}

function describeKeys(group: ToggleGroup): string {
  const [one, many] = NOUN[group.type];
  const quoted = group.keys.map((key) => `"${key}"`).join(', ');
  return `${group.keys.length === 1 ? one : many} ${quoted}`;
}

async function toggle(context: CliContext, name: string, enabled: boolean, flags: ToggleFlags) {
  checkName(name);
  const { groups, notes } = ownKeys(name, toggleGroups(flags));
  const api = await context.api();
  const verb = enabled ? 'Enabled' : 'Disabled';
  if (groups.length === 0) {
    const action = enabled ? '/enable' : '/disable';
    const { server } = await api.post<{ server: ServerView }>(serverPath(name, action), undefined);
    context.stdout.write(`${verb} server "${server.name}"\n`);
    return;
  }
  for (const group of groups) {
    const body = { type: group.type, keys: group.keys, enabled };
    await api.post<{ changed: number }>(serverPath(name, '/capabilities'), body);
    context.stdout.write(`${verb} ${describeKeys(group)} on "${name}"\n`);
  }
  for (const note of notes) context.stdout.write(note);
  // The choices are made: a check that cannot be done is no reason to fail the command.
  const warnings = await unknownNameWarnings(api, name, groups).catch(() => []);
  for (const line of warnings) context.stderr.write(line);
}

function toggleCommand(mcp: Command, context: CliContext, enabled: boolean): void {
  const verb = enabled ? 'enable' : 'disable';
  mcp
    .command(verb)
    .description(
      `${verb} a server, or with --tool/--prompt/--resource ${verb} single capabilities of it`,
    )
    .argument('<name>', 'the server name')
    .option('--tool <name>', `${verb} this tool (repeatable)`, collect, [])
    .option('--prompt <name>', `${verb} this prompt (repeatable)`, collect, [])
    .option('--resource <uri>', `${verb} this resource or URI template (repeatable)`, collect, [])
    .action((name: string, flags: ToggleFlags) => toggle(context, name, enabled, flags));
}

/** `coffer mcp enable|disable <name> [--tool T] [--prompt P] [--resource URI]`, `coffer mcp remove`. */
export function registerMcpToggle(mcp: Command, context: CliContext): void {
  toggleCommand(mcp, context, true);
  toggleCommand(mcp, context, false);

  mcp
    .command('remove')
    .description('unregister a server (its capability choices, secrets and sign-in go with it)')
    .argument('<name>', 'the server name')
    .action(async (name: string) => {
      checkName(name);
      const api = await context.api();
      const stored = await storedSecretsOf(api, name);
      await api.delete(serverPath(name));
      context.stdout.write(`Removed server "${name}"\n${deletedLine(stored.refs, stored.where)}`);
    });
}
