import { movedSecretsNote } from './moved-secrets.js';
import type { CapabilityPreference, CapabilityType } from './capability.js';
import type { SecretRef } from './ports/secret-store-port.js';
import {
  secretKey,
  secretRefsOf,
  type ServerDefinition,
  type ServerRecord,
} from './server-definition.js';
import { DEFAULT_DESTRUCTIVE_POLICY, type ServerPolicies, type ToolPolicy } from './tool-policy.js';

/**
 * What importing a config file would change, computed before anything is written: the
 * dry run prints it, the real import applies exactly it. Importing the same file twice
 * plans nothing the second time. Servers registered here but absent from the file are
 * kept (listed, never removed): a file from another machine must not delete anything.
 */
export interface CapabilitySwitch {
  readonly type: CapabilityType;
  readonly key: string;
  readonly enabled: boolean;
}

/** One approval policy an import sets. */
export interface PolicyChange {
  /** The tool whose own policy this is; null for the server's default for destructive tools. */
  readonly tool: string | null;
  readonly policy: ToolPolicy;
  /** The policy before; null when the tool had no own policy (the change adds one). */
  readonly was: ToolPolicy | null;
}

/** A remote server's pre-registered OAuth client id, set by an import. */
export interface OAuthClientChange {
  readonly client_id: string;
  /** The id before; null when the server had none. */
  readonly was: string | null;
}

export interface ServerChange {
  readonly server: string;
  readonly action: 'add' | 'update' | 'unchanged';
  /** The definition fields an update changes. */
  readonly fields: readonly (keyof ServerDefinition)[];
  readonly capabilities: readonly CapabilitySwitch[];
  readonly policies: readonly PolicyChange[];
  /** The pre-registered OAuth client id the import sets; absent when it sets none. */
  readonly oauth_client?: OAuthClientChange;
  /** What the user should know before it is applied (moved-secrets.ts). */
  readonly notes: readonly string[];
}

export interface MissingSecret {
  readonly server: string;
  readonly kind: 'env' | 'header';
  readonly name: string;
  /** What to run on this machine to store it. */
  readonly command: string;
}

export interface ConfigImportPlan {
  readonly changes: readonly ServerChange[];
  readonly missing_secrets: readonly MissingSecret[];
  /** Registered servers the file does not mention: left as they are. */
  readonly kept: readonly string[];
}

/** Per capability type, key → enabled: the switches a config file sets for one server. */
export type CapabilitySwitches = {
  [type in CapabilityType]?: Record<string, boolean> | undefined;
};

/**
 * The approval policies a config file sets for one server. What it leaves out is left
 * alone: a file without `policies` (written before they existed) changes none.
 */
export interface ConfigPolicies {
  readonly destructive?: ToolPolicy | undefined;
  readonly tools?: Readonly<Record<string, ToolPolicy>> | undefined;
}

export interface PlanInput {
  readonly definitions: readonly ServerDefinition[];
  readonly switches: ReadonlyMap<string, CapabilitySwitches>;
  readonly policies: ReadonlyMap<string, ConfigPolicies>;
  readonly current: readonly ServerRecord[];
  readonly preferences: ReadonlyMap<string, readonly CapabilityPreference[]>;
  /** The policies stored now, for the registered servers. */
  readonly currentPolicies: ReadonlyMap<string, ServerPolicies>;
  readonly secrets: readonly SecretRef[];
  /** Pre-registered OAuth client ids the file names, by server; others are left alone. */
  readonly clients?: ReadonlyMap<string, string>;
  /** The ids kept here now, for the registered servers. */
  readonly currentClients?: ReadonlyMap<string, string>;
}

/** The fields of a definition besides its name, in the order a config file lists them. */
export const DEFINITION_FIELDS = [
  'transport',
  'command',
  'args',
  'env',
  'cwd',
  'url',
  'headers',
  'secret_env',
  'secret_headers',
  'enabled',
  'auto_enable_new_capabilities',
  'shared',
] as const satisfies readonly (keyof ServerDefinition)[];

/** Key order of env and headers maps is not a change. */
function canonical(value: unknown): string {
  if (value === null || typeof value !== 'object' || Array.isArray(value))
    return JSON.stringify(value) ?? 'undefined';
  const entries = Object.entries(value as Record<string, unknown>).sort(([a], [b]) =>
    a < b ? -1 : a > b ? 1 : 0,
  );
  return `{${entries.map(([key, item]) => `${JSON.stringify(key)}:${canonical(item)}`).join(',')}}`;
}

function changedFields(
  before: ServerDefinition,
  after: ServerDefinition,
): (keyof ServerDefinition)[] {
  return DEFINITION_FIELDS.filter((field) => canonical(before[field]) !== canonical(after[field]));
}

function switchChanges(
  definition: ServerDefinition,
  wanted: CapabilitySwitches | undefined,
  preferences: readonly CapabilityPreference[],
): CapabilitySwitch[] {
  const changes: CapabilitySwitch[] = [];
  for (const [type, keys] of Object.entries(wanted ?? {}) as [
    CapabilityType,
    Record<string, boolean> | undefined,
  ][]) {
    for (const [key, enabled] of Object.entries(keys ?? {})) {
      const row = preferences.find((pref) => pref.type === type && pref.key === key);
      // Never seen: it will be switched by the default when it first appears.
      const current = row?.enabled ?? definition.auto_enable_new_capabilities;
      if (current !== enabled) changes.push({ type, key, enabled });
    }
  }
  return changes;
}

function policyChanges(
  wanted: ConfigPolicies | undefined,
  current: ServerPolicies | undefined,
): PolicyChange[] {
  const changes: PolicyChange[] = [];
  const destructive = current?.destructive ?? DEFAULT_DESTRUCTIVE_POLICY;
  if (wanted?.destructive !== undefined && wanted.destructive !== destructive)
    changes.push({ tool: null, policy: wanted.destructive, was: destructive });
  for (const [tool, policy] of Object.entries(wanted?.tools ?? {})) {
    const was = current?.tools.get(tool) ?? null;
    if (was !== policy) changes.push({ tool, policy, was });
  }
  return changes;
}

function missingSecrets(
  definition: ServerDefinition,
  stored: readonly SecretRef[],
): MissingSecret[] {
  const held = new Set(stored.map(secretKey));
  return secretRefsOf(definition)
    .filter((ref) => !held.has(secretKey(ref)))
    .map(({ kind, name }) => ({
      server: definition.name,
      kind,
      name,
      command: `coffer secrets set ${definition.name} --${kind} ${name}`,
    }));
}

function clientChange(
  wanted: string | undefined,
  current: string | undefined,
): OAuthClientChange | undefined {
  if (wanted === undefined || wanted === current) return undefined;
  return { client_id: wanted, was: current ?? null };
}

export function planConfigImport(input: PlanInput): ConfigImportPlan {
  const byName = new Map(input.current.map((record) => [record.name, record]));
  const changes = input.definitions.map((definition): ServerChange => {
    const existing = byName.get(definition.name);
    const capabilities = switchChanges(
      definition,
      input.switches.get(definition.name),
      existing === undefined ? [] : (input.preferences.get(definition.name) ?? []),
    );
    const policies = policyChanges(
      input.policies.get(definition.name),
      existing === undefined ? undefined : input.currentPolicies.get(definition.name),
    );
    const server = definition.name;
    const client = clientChange(
      input.clients?.get(server),
      existing === undefined ? undefined : input.currentClients?.get(server),
    );
    const oauth = client === undefined ? {} : { oauth_client: client };
    if (existing === undefined)
      return { server, action: 'add', fields: [], capabilities, policies, ...oauth, notes: [] };
    const fields = changedFields(existing, definition);
    const same =
      fields.length === 0 &&
      capabilities.length === 0 &&
      policies.length === 0 &&
      client === undefined;
    const moved = movedSecretsNote(existing, definition);
    const notes = moved === undefined ? [] : [moved];
    const action = same ? 'unchanged' : 'update';
    return { server, action, fields, capabilities, policies, ...oauth, notes };
  });
  const named = new Set(input.definitions.map((definition) => definition.name));
  return {
    changes,
    missing_secrets: input.definitions.flatMap((definition) =>
      missingSecrets(definition, input.secrets),
    ),
    kept: input.current.filter((record) => !named.has(record.name)).map((record) => record.name),
  };
}
