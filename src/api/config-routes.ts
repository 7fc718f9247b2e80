import type { Context } from 'hono';
import { Hono } from 'hono';
import { CofferError } from '../domain/errors.js';
import { parseConfigFile } from '../domain/config-file.js';
import {
  clientsOf,
  policiesOf,
  preferencesOf,
  readConfig,
  writeConfigChange,
} from '../domain/config-store.js';
import {
  planConfigImport,
  type ConfigImportPlan,
  type ServerChange,
} from '../domain/config-plan.js';
import type { ServerDefinition } from '../domain/server-definition.js';
import type { SecretRef } from '../domain/ports.js';
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

  app.get('/config', async (c) => c.json(await readConfig(services)));

  app.post('/config/import', async (c) => {
    const parsed = parseConfigFile(await readJsonBody(c));
    checkEach(services, parsed.definitions);
    const current = await services.servers.list();
    const plan = planConfigImport({
      ...parsed,
      current,
      preferences: await preferencesOf(services, current),
      currentPolicies: await policiesOf(services, current),
      secrets: await storedSecrets(services),
      currentClients: await clientsOf(services, current),
    });
    const dryRun = ['1', 'true'].includes(c.req.query('dry_run') ?? '');
    if (!dryRun) await apply(services, c, plan, parsed.definitions);
    return c.json({ dry_run: dryRun, ...plan });
  });

  return app;
}

/**
 * Every server of the file is checked as the store would check it before the plan is
 * made: a dry run refuses what the import would, and an import refused for one server
 * has written none. The error names the server it is about.
 */
function checkEach(services: ApiServices, definitions: readonly ServerDefinition[]): void {
  for (const definition of definitions) {
    try {
      services.servers.check(definition);
    } catch (error) {
      if (!(error instanceof CofferError)) throw error;
      const { code, message, hint } = error;
      throw new CofferError(code, `servers.${definition.name}: ${message}`, {
        ...(hint === undefined ? {} : { hint }),
      });
    }
  }
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
  if (
    services.oauth === undefined &&
    plan.changes.some((change) => change.oauth_client !== undefined)
  )
    throw new CofferError('NOT_FOUND', 'This daemon has no OAuth sign-in', {
      hint: 'remove `oauth_client_id` from the file, or import into a daemon that has it',
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
  await writeConfigChange(services, change, definition);
  // Lists made with the old definition, or signed in with the old OAuth client, are stale.
  if (change.action === 'update' && (change.fields.length > 0 || change.oauth_client !== undefined))
    await services.catalog.forget(change.server);
  // Live sessions list and gate tools by switches and policies: they must see the new ones.
  if (change.capabilities.length > 0 || change.policies.length > 0)
    services.notifier.capabilitiesChanged(change.server);
}
