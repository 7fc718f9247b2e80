import { Hono, type Context } from 'hono';
import { CofferError } from '../domain/errors.js';
import { importItemView } from '../domain/import-item-view.js';
import type { AgentChangeKind, AgentImportOptions, AgentSetup } from '../domain/ports.js';
import { recordAdmin } from './admin-audit.js';
import { agentChangeSchema, agentImportSchema } from './agent-schemas.js';
import { runImport } from './agent-import.js';
import type { ApiServices } from './api-services.js';
import { parseInput, readJsonBody } from './parse-request.js';

const changes: readonly AgentChangeKind[] = ['install', 'uninstall'];

/** What an import is planned against: the servers Coffer has, by name and definition. */
async function importOptions(
  services: ApiServices,
  input: { readonly rename: boolean; readonly text?: string | undefined },
): Promise<AgentImportOptions> {
  const known = await services.servers.list();
  const ownPort = services.ownPort;
  return {
    rename: input.rename,
    known,
    ...(ownPort === undefined ? {} : { ownPort }),
    ...(input.text === undefined ? {} : { text: input.text }),
  };
}

/**
 * /agents: the agents on this machine, and `coffer agents install|uninstall|import` for
 * the UI. Every change has a preview route that plans it and writes nothing; applying
 * takes the preview's `before_sha256`, so what is written is what was shown.
 */
export function agentRoutes(services: ApiServices): Hono {
  const app = new Hono();
  const setup = (): AgentSetup => {
    if (services.agents === undefined)
      throw new CofferError('NOT_FOUND', 'This daemon does not edit agent configs');
    return services.agents;
  };

  app.get('/agents', async (c) => {
    const { known, ownPort } = await importOptions(services, { rename: false });
    const options = { known, ...(ownPort === undefined ? {} : { ownPort }) };
    return c.json({ agents: await setup().list(options) });
  });

  /** Coffer's servers and their switches, which --replace checks each entry against. */
  const servedBy = async (change: AgentChangeKind) =>
    change === 'install'
      ? {
          cofferServers: new Map(
            (await services.servers.list()).map(({ name, enabled }) => [name, enabled]),
          ),
        }
      : {};

  for (const change of changes) {
    app.post(`/agents/:id/${change}/preview`, async (c) => {
      const input = parseInput(agentChangeSchema, await readJsonBody(c));
      const options = { ...input, ...(await servedBy(change)) };
      const preview = await setup().preview(change, c.req.param('id'), input.scope, options);
      return c.json({ preview });
    });

    app.post(`/agents/:id/${change}`, async (c) => {
      const id = c.req.param('id');
      const input = parseInput(agentChangeSchema, await readJsonBody(c));
      const result = await setup().apply(change, id, input.scope, {
        replace: input.replace,
        ...(await servedBy(change)),
        ...(input.expected_sha256 === undefined ? {} : { expectedSha256: input.expected_sha256 }),
      });
      if (result.changes)
        recordAdmin(services, c, { action: `agent.${change}`, server: null, key: result.path });
      return c.json({ result });
    });
  }

  /** The import a request body asks for, planned: the agent's config, or its `text`. */
  const plannedImport = async (c: Context, id: string) => {
    const input = parseInput(agentImportSchema, await readJsonBody(c));
    const options = await importOptions(services, input);
    return setup().planImport(id, input.scope ?? 'user', options);
  };

  app.post('/agents/:id/import/preview', async (c) => {
    const plan = await plannedImport(c, c.req.param('id'));
    const items = plan.items.map((item) => importItemView(item, { kind: 'planned' }));
    return c.json({ agent: plan.agent, scope: plan.scope, path: plan.path, items });
  });

  app.post('/agents/:id/import', async (c) => {
    const plan = await plannedImport(c, c.req.param('id'));
    const items = await runImport(services, c, plan);
    return c.json({ agent: plan.agent, scope: plan.scope, path: plan.path, items });
  });

  return app;
}
