import { z } from 'zod';
import { capabilityTypes, type CapabilityPreference, type CapabilityType } from './capability.js';
import { DEFINITION_FIELDS, type CapabilitySwitches, type ConfigPolicies } from './config-plan.js';
import { CofferError } from './errors.js';
import {
  serverDefinitionSchema,
  type ServerDefinition,
  type ServerRecord,
} from './server-definition.js';
import { toolPolicies, type ServerPolicies } from './tool-policy.js';

/**
 * The declarative configuration a user keeps in dotfiles (`coffer config export` /
 * `import`, docs/CONFIG.md): servers by name, each with its definition and the
 * capability switches that differ from its default, and its approval policies (the
 * default for destructive tools, each tool's own policy). Secrets appear by NAME only
 * (`secret_env`, `secret_headers`): values stay in the keychain of each machine.
 */
export const CONFIG_VERSION = 1;

type Switches = CapabilitySwitches;

export interface ConfigServer extends Omit<ServerDefinition, 'name'> {
  /** Capabilities switched away from the server's default (auto_enable_new_capabilities). */
  readonly capabilities?: Switches;
  /** Approval policies; absent in files written before they existed (then left alone). */
  readonly policies?: ConfigPolicies;
  /** A remote server's OAuth client given by hand (`--oauth-client-id`); never its secret. */
  readonly oauth_client_id?: string;
}

export interface ConfigFile {
  readonly coffer_config: typeof CONFIG_VERSION;
  readonly servers: Readonly<Record<string, ConfigServer>>;
}

const switchesSchema = z
  .object(
    Object.fromEntries(
      capabilityTypes.map((type) => [type, z.record(z.string().min(1), z.boolean()).optional()]),
    ) as Record<CapabilityType, z.ZodOptional<z.ZodRecord<z.ZodString, z.ZodBoolean>>>,
  )
  .strict();

const policySchema = z.enum(toolPolicies, {
  error: `a policy must be one of ${toolPolicies.join(', ')}`,
});

const policiesSchema = z
  .object({
    destructive: policySchema.optional(),
    tools: z.record(z.string().min(1, 'a tool name must not be empty'), policySchema).optional(),
  })
  .strict();

const clientIdSchema = z.string().min(1, 'an OAuth client id must not be empty');

const fileSchema = z
  .object({
    coffer_config: z.literal(CONFIG_VERSION, {
      error: `coffer_config must be ${CONFIG_VERSION} (the version of this file format)`,
    }),
    servers: z.record(z.string(), z.record(z.string(), z.unknown())),
  })
  .strict();

function pathText(path: readonly PropertyKey[]): string {
  return path
    .map((part) => (typeof part === 'number' ? `[${part}]` : `.${String(part)}`))
    .join('')
    .replace(/^\./, '');
}

function invalid(path: string, message: string): CofferError {
  return new CofferError(
    'INVALID_INPUT',
    `Invalid config: ${path === '' ? '' : `${path}: `}${message}`,
    {
      hint: 'fix that field in the file (docs/CONFIG.md describes every field), then import again',
      data: { path },
    },
  );
}

function check<S extends z.ZodType>(schema: S, value: unknown, prefix: string): z.output<S> {
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  const issue = result.error.issues[0];
  const inner = issue?.code === 'invalid_key' ? issue.issues[0] : undefined;
  const path = [prefix, pathText(issue?.path ?? [])].filter((part) => part !== '').join('.');
  throw invalid(path, inner?.message ?? issue?.message ?? 'invalid');
}

/** Validates a parsed file; the first problem names its field, e.g. `servers.files.args[0]`. */
export function parseConfigFile(value: unknown): {
  readonly definitions: readonly ServerDefinition[];
  readonly switches: ReadonlyMap<string, Switches>;
  readonly policies: ReadonlyMap<string, ConfigPolicies>;
  /** Pre-registered OAuth client ids, by server. */
  readonly clients: ReadonlyMap<string, string>;
} {
  const file = check(fileSchema, value, '');
  const definitions: ServerDefinition[] = [];
  const switches = new Map<string, Switches>();
  const policies = new Map<string, ConfigPolicies>();
  const clients = new Map<string, string>();
  for (const [name, entry] of Object.entries(file.servers)) {
    const { capabilities, policies: own, oauth_client_id: clientId, ...definition } = entry;
    const prefix = `servers.${name}`;
    if ('name' in definition) throw invalid(`${prefix}.name`, 'the name is the key of the entry');
    const parsed = check(serverDefinitionSchema, { ...definition, name }, prefix);
    definitions.push(parsed);
    if (capabilities !== undefined)
      switches.set(name, check(switchesSchema, capabilities, `${prefix}.capabilities`));
    if (own !== undefined) policies.set(name, check(policiesSchema, own, `${prefix}.policies`));
    if (clientId === undefined) continue;
    if (parsed.transport === 'stdio')
      throw invalid(
        `${prefix}.oauth_client_id`,
        'an OAuth client is for http and sse servers only',
      );
    clients.set(name, check(clientIdSchema, clientId, `${prefix}.oauth_client_id`));
  }
  return { definitions, switches, policies, clients };
}

/**
 * The destructive default is always written, even when it is the default `ask`: every
 * server has one on every machine, so a file that states it makes the other machine's
 * match, and a looser `allow` set there earlier cannot survive an import unnoticed.
 */
function policiesEntry(policies: ServerPolicies | undefined): ConfigPolicies | undefined {
  if (policies === undefined) return undefined;
  const tools = Object.fromEntries(
    [...policies.tools].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)),
  );
  return Object.keys(tools).length === 0
    ? { destructive: policies.destructive }
    : { destructive: policies.destructive, tools };
}

/** The file for what is registered now: definitions, and switches that differ from the default. */
export function exportConfig(
  servers: readonly ServerRecord[],
  preferences: ReadonlyMap<string, readonly CapabilityPreference[]>,
  policies: ReadonlyMap<string, ServerPolicies>,
  /** Pre-registered OAuth client ids, by server (never their secrets). */
  clients: ReadonlyMap<string, string> = new Map(),
): ConfigFile {
  const entries: Record<string, ConfigServer> = {};
  for (const record of [...servers].sort((a, b) => a.name.localeCompare(b.name))) {
    const name = record.name;
    const definition = Object.fromEntries(
      DEFINITION_FIELDS.flatMap((field) =>
        record[field] === undefined ? [] : [[field, record[field]]],
      ),
    ) as Omit<ServerDefinition, 'name'>;
    const switches: Switches = {};
    for (const preference of preferences.get(name) ?? []) {
      if (preference.enabled === record.auto_enable_new_capabilities) continue;
      (switches[preference.type] ??= {})[preference.key] = preference.enabled;
    }
    const own = policiesEntry(policies.get(name));
    const clientId = clients.get(name);
    entries[name] = {
      ...definition,
      ...(clientId === undefined ? {} : { oauth_client_id: clientId }),
      ...(Object.keys(switches).length === 0 ? {} : { capabilities: switches }),
      ...(own === undefined ? {} : { policies: own }),
    };
  }
  return { coffer_config: CONFIG_VERSION, servers: entries };
}
