import { Hono } from 'hono';
import { CofferError } from '../domain/errors.js';
import type { ToolPolicyRepository } from '../domain/ports.js';
import { effectivePolicy, isDestructive, type ToolPolicy } from '../domain/tool-policy.js';
import { recordAdmin } from './admin-audit.js';
import { announce } from './announce.js';
import type { ApiServices } from './api-services.js';
import { parseInput, readJsonBody } from './parse-request.js';
import { setPoliciesSchema } from './request-schemas.js';
import { requireServer } from './server-lookup.js';

/** One tool in GET /servers/:name/policies: its own policy (null: none), and what applies. */
export interface ToolPolicyView {
  readonly key: string;
  readonly policy: ToolPolicy | null;
  readonly destructive: boolean;
  readonly effective: ToolPolicy;
  /**
   * Its switch: a tool switched off is refused whatever its policy says. A policy kept for
   * a tool the server no longer lists has no switch to read, and says true.
   */
  readonly enabled: boolean;
}

/** GET /servers/:name/policies (web/src/api/types.ts keeps the UI's copy of it). */
export interface PolicyView {
  readonly server: string;
  readonly destructive: ToolPolicy;
  readonly tools: readonly ToolPolicyView[];
}

/**
 * /servers/:name/policies: what runs without asking (issue 20). GET shows each listed
 * tool's own policy, whether its annotations call it destructive, and the policy that
 * applies; POST changes the server's destructive default and tools' own policies.
 */
export function policyRoutes(services: ApiServices): Hono {
  const app = new Hono();
  const policies = (): ToolPolicyRepository => {
    if (services.policies === undefined) throw new CofferError('NOT_FOUND', 'No policies here');
    return services.policies;
  };

  app.get('/servers/:name/policies', async (c) => {
    const name = c.req.param('name');
    await requireServer(services.servers, name);
    const own = await policies().forServer(name);
    const { tools } = await services.catalog.capabilities(name);
    const listed = tools.items.map((item): ToolPolicyView => ({
      key: item.key,
      policy: own.tools.get(item.key) ?? null,
      destructive: isDestructive(item.definition ?? undefined),
      effective: effectivePolicy(own, item.key, item.definition ?? undefined),
      enabled: item.enabled,
    }));
    const unlisted = [...own.tools]
      .filter(([key]) => !tools.items.some((item) => item.key === key))
      .map(([key, policy]): ToolPolicyView => ({
        key,
        policy,
        destructive: false,
        effective: policy,
        enabled: true,
      }));
    const view: PolicyView = {
      server: name,
      destructive: own.destructive,
      tools: [...listed, ...unlisted],
    };
    return c.json(view);
  });

  app.post('/servers/:name/policies', async (c) => {
    const name = c.req.param('name');
    const input = parseInput(setPoliciesSchema, await readJsonBody(c));
    await requireServer(services.servers, name);
    const repository = policies();
    if (input.destructive !== undefined) await repository.setDestructive(name, input.destructive);
    for (const [key, policy] of Object.entries(input.tools ?? {}))
      await repository.setTool(name, key, policy);
    services.notifier.capabilitiesChanged(name);
    recordAdmin(services, c, { action: 'policy.set', server: name, key: describe(input) });
    announce(services, { type: 'server.changed', server: name });
    const own = await repository.forServer(name);
    return c.json({
      server: name,
      destructive: own.destructive,
      tools: Object.fromEntries(own.tools),
    });
  });

  return app;
}

function describe(input: {
  destructive?: string | undefined;
  tools?: Record<string, string | null> | undefined;
}): string {
  const parts = Object.entries(input.tools ?? {}).map(
    ([key, policy]) => `${key}=${policy ?? 'default'}`,
  );
  if (input.destructive !== undefined) parts.unshift(`destructive=${input.destructive}`);
  return parts.join(',');
}
