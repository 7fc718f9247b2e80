import type { Context } from 'hono';
import { Hono } from 'hono';
import { CofferError } from '../domain/errors.js';
import { exportConfig, parseConfigFile } from '../domain/config-file.js';
import {
  planConfigImport,
  type ConfigImportPlan,
  type ServerChange,
} from '../domain/config-plan.js';
import type { CapabilityPreference } from '../domain/capability.js';
import type { ServerDefinition, ServerRecord } from '../domain/server-definition.js';
import type { ServerPolicies } from '../domain/tool-policy.js';
import type { SecretRef, ServerPatch } from '../domain/ports.js';
import { recordAdmin } from './admin-audit.js';
import { announce } from './announce.js';
import type { ApiServices } from './api-services.js';
import { readJsonBody } from './parse-request.js';

/**
 * GET /config: the declarative configuration (docs/CONFIG.md), secrets by name only.
 * POST /config/import[?dry_run=1]: the plan of what the file changes, applied unless a
 * dry run. The plan is computed first, so a file with one bad field changes nothing.
 */
export function configRoutes(services: ApiServices): Hono {
  const app = new Hono();

  app.get('/config', async (c) => {
    const servers = await services.servers.list();
    return c.json(
      exportConfig(
        servers,
        await preferencesOf(services, servers),
        await policiesOf(services, servers),
      ),
    );
  });

  app.post('/config/import', async (c) => {
    const parsed = parseConfigFile(await readJsonBody(c));
    const current = await services.servers.list();
    const plan = planConfigImport({
      ...parsed,
      current,
      preferences: await preferencesOf(services, current),
      currentPolicies: await policiesOf(services, current),
      secrets: await storedSecrets(services),
    });
    const dryRun = ['1', 'true'].includes(c.req.query('dry_run') ?? '');
    if (!dryRun) await apply(services, c, plan, parsed.definitions);
    return c.json({ dry_run: dryRun, ...plan });
  });

  return app;
}

async function preferencesOf(
  services: ApiServices,
  servers: readonly ServerRecord[],
): Promise<Map<string, CapabilityPreference[]>> {
  const entries = await Promise.all(
    servers.map(
      async (server) => [server.name, await services.preferences.list(server.name)] as const,
    ),
  );
  return new Map(entries);
}

/** Without a policy store (some test setups) the file gets none and an import sets none. */
async function policiesOf(
  services: ApiServices,
  servers: readonly ServerRecord[],
): Promise<Map<string, ServerPolicies>> {
  const repository = services.policies;
  if (repository === undefined) return new Map();
  const entries = await Promise.all(
    servers.map(async (server) => [server.name, await repository.forServer(server.name)] as const),
  );
  return new Map(entries);
}

/** Names only; without a secret store every referenced secret counts as missing. */
async function storedSecrets(services: ApiServices): Promise<SecretRef[]> {
  return (await services.secrets?.list()) ?? [];
}

async function apply(
  services: ApiServices,
  c: Context,
  plan: ConfigImportPlan,
  definitions: readonly ServerDefinition[],
): Promise<void> {
  if (services.policies === undefined && plan.changes.some((change) => change.policies.length > 0))
    throw new CofferError('NOT_FOUND', 'This daemon keeps no approval policies', {
      hint: 'remove `policies` from the file, or import into a daemon that has them',
    });
  const byName = new Map(definitions.map((definition) => [definition.name, definition]));
  let changed = false;
  for (const change of plan.changes) {
    const definition = byName.get(change.server);
    if (definition === undefined || change.action === 'unchanged') continue;
    await applyChange(services, change, definition);
    changed = true;
    recordAdmin(services, c, { action: `config.import.${change.action}`, server: change.server });
    announce(services, {
      type: change.action === 'add' ? 'server.added' : 'server.changed',
      server: change.server,
    });
  }
  if (changed) services.notifier.serversChanged();
}

async function applyChange(
  services: ApiServices,
  change: ServerChange,
  definition: ServerDefinition,
): Promise<void> {
  if (change.action === 'add') await services.servers.create(definition);
  else if (change.fields.length > 0) {
    // A key present with undefined clears an optional field (server-patch.ts).
    const patch: ServerPatch = Object.fromEntries(
      change.fields.map((field) => [field, definition[field]]),
    );
    await services.servers.update(change.server, patch);
    await services.catalog.forget(change.server);
  }
  for (const { type, key, enabled } of change.capabilities)
    await services.preferences.setEnabled(change.server, type, [key], enabled);
  await applyPolicies(services, change);
  // Live sessions list and gate tools by switches and policies: they must see the new ones.
  if (change.capabilities.length > 0 || change.policies.length > 0)
    services.notifier.capabilitiesChanged(change.server);
}

async function applyPolicies(services: ApiServices, change: ServerChange): Promise<void> {
  const repository = services.policies;
  if (repository === undefined) return; // refused before anything was written (apply)
  for (const { tool, policy } of change.policies) {
    if (tool === null) await repository.setDestructive(change.server, policy);
    else await repository.setTool(change.server, tool, policy);
  }
}
