import type { CapabilityPreference } from './capability.js';
import { exportConfig, type ConfigFile } from './config-file.js';
import type { ServerChange } from './config-plan.js';
import type {
  OAuthSignIn,
  PreferenceRepository,
  ServerPatch,
  ServerRepository,
  ToolPolicyRepository,
} from './ports.js';
import type { ServerDefinition, ServerRecord } from './server-definition.js';
import type { ServerPolicies } from './tool-policy.js';

/**
 * The stores a configuration file (docs/CONFIG.md) is read from and written to: by
 * `GET /config` and `POST /config/import`, and by the daemon's snapshot of it and the
 * restore from that snapshot (docs/RECOVERY.md). One reading and one writing, so a
 * snapshot holds exactly what an export would.
 */
export interface ConfigStores {
  readonly servers: Pick<ServerRepository, 'list' | 'create' | 'update'>;
  readonly preferences: Pick<PreferenceRepository, 'list' | 'setEnabled'>;
  /** Without one (some test setups) the file gets no policies and an import sets none. */
  readonly policies?: Pick<ToolPolicyRepository, 'forServer' | 'setTool' | 'setDestructive'>;
  /**
   * Pre-registered OAuth client ids (the keychain's, through the daemon's OAuth vault).
   * Without it the file gets none and an import sets none.
   */
  readonly oauth?: Pick<OAuthSignIn, 'clientId' | 'setClient'> | undefined;
}

export async function preferencesOf(
  stores: ConfigStores,
  servers: readonly ServerRecord[],
): Promise<Map<string, CapabilityPreference[]>> {
  const entries = await Promise.all(
    servers.map(
      async (server) => [server.name, await stores.preferences.list(server.name)] as const,
    ),
  );
  return new Map(entries);
}

export async function policiesOf(
  stores: ConfigStores,
  servers: readonly ServerRecord[],
): Promise<Map<string, ServerPolicies>> {
  const repository = stores.policies;
  if (repository === undefined) return new Map();
  const entries = await Promise.all(
    servers.map(async (server) => [server.name, await repository.forServer(server.name)] as const),
  );
  return new Map(entries);
}

/** The pre-registered OAuth client id of each remote server that has one. */
export async function clientsOf(
  stores: ConfigStores,
  servers: readonly ServerRecord[],
): Promise<Map<string, string>> {
  const oauth = stores.oauth;
  if (oauth === undefined) return new Map();
  const remote = servers.filter((server) => server.transport !== 'stdio');
  const entries = await Promise.all(
    remote.map(async (server) => [server.name, await oauth.clientId(server.name)] as const),
  );
  return new Map(entries.filter((entry): entry is [string, string] => entry[1] !== undefined));
}

/** What `coffer config export` prints: every server, its switches, policies and OAuth client. */
export async function readConfig(stores: ConfigStores): Promise<ConfigFile> {
  const servers = await stores.servers.list();
  return exportConfig(
    servers,
    await preferencesOf(stores, servers),
    await policiesOf(stores, servers),
    await clientsOf(stores, servers),
  );
}

/**
 * Writes one planned change (config-plan.ts): the server added or its changed fields,
 * then its switches and policies. The caller tells live sessions.
 */
export async function writeConfigChange(
  stores: ConfigStores,
  change: ServerChange,
  definition: ServerDefinition,
): Promise<void> {
  if (change.action === 'add') await stores.servers.create(definition);
  else if (change.fields.length > 0) {
    // A key present with undefined clears an optional field (server-patch.ts).
    const patch: ServerPatch = Object.fromEntries(
      change.fields.map((field) => [field, definition[field]]),
    );
    await stores.servers.update(change.server, patch);
  }
  for (const { type, key, enabled } of change.capabilities)
    await stores.preferences.setEnabled(change.server, type, [key], enabled);
  // A new id: tokens and a registration made with the old client are forgotten with it.
  if (change.oauth_client !== undefined && stores.oauth !== undefined)
    await stores.oauth.setClient(change.server, { client_id: change.oauth_client.client_id });
  const policies = stores.policies;
  if (policies === undefined) return; // an import refuses policies first (config-routes.ts)
  for (const { tool, policy } of change.policies) {
    if (tool === null) await policies.setDestructive(change.server, policy);
    else await policies.setTool(change.server, tool, policy);
  }
}
