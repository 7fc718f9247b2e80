import { Hono } from 'hono';
import { canonicalJsonLines } from '../domain/canonical-json.js';
import { CofferError } from '../domain/errors.js';
import { lineDiff, type DiffLine } from '../domain/line-diff.js';
import type { JsonObject, ToolPinRepository } from '../domain/ports.js';
import { reviewCommand, type HeldTool } from '../domain/tool-pin.js';
import { recordAdmin } from './admin-audit.js';
import { announce } from './announce.js';
import type { ApiServices } from './api-services.js';
import { parseInput, readJsonBody } from './parse-request.js';
import { acceptReviewSchema } from './request-schemas.js';
import { requireServer } from './server-lookup.js';

/** One held-back tool: what the user allowed, what the server lists now, the line diff. */
export interface ReviewedTool {
  readonly key: string;
  readonly pinned: JsonObject;
  readonly pinned_at: string;
  readonly changed: JsonObject;
  readonly detected_at: string;
  readonly diff: readonly DiffLine[];
}

/** GET /servers/:name/reviews (web/src/api/types.ts keeps the UI's copy of it). */
export interface ReviewView {
  readonly server: string;
  readonly tools: readonly ReviewedTool[];
}

function reviewed(tool: HeldTool): ReviewedTool {
  return {
    ...tool,
    diff: lineDiff(canonicalJsonLines(tool.pinned), canonicalJsonLines(tool.changed)),
  };
}

/**
 * /servers/:name/reviews: tools held back because their definition changed since the
 * user allowed them (issue 20). GET lists them, the server's tools freshly listed first
 * (so a change is seen even if no agent listed since), with both definitions and their
 * diff; POST accepts one (`{tool}`) or all (`{}`), and sessions list them again.
 */
export function reviewRoutes(services: ApiServices): Hono {
  const app = new Hono();
  const pins = (): ToolPinRepository => {
    if (services.pins === undefined) throw new CofferError('NOT_FOUND', 'No tool pins here');
    return services.pins;
  };

  app.get('/servers/:name/reviews', async (c) => {
    const name = c.req.param('name');
    const repository = pins();
    const server = await requireServer(services.servers, name);
    // A disabled server lists nothing; what it recorded before still shows.
    if (server.enabled) await services.catalog.capabilities(name);
    const view: ReviewView = { server: name, tools: (await repository.held(name)).map(reviewed) };
    return c.json(view);
  });

  app.post('/servers/:name/reviews', async (c) => {
    const name = c.req.param('name');
    const input = parseInput(acceptReviewSchema, await readJsonBody(c));
    const repository = pins();
    await requireServer(services.servers, name);
    const accepted = await repository.accept(name, input.tool);
    if (input.tool !== undefined && accepted.length === 0)
      throw new CofferError(
        'NOT_FOUND',
        `Tool "${input.tool}" of ${name} has no change to review`,
        {
          hint: `see what is held back with \`${reviewCommand(name)}\``,
          data: { server: name },
        },
      );
    if (accepted.length > 0) {
      services.notifier.capabilitiesChanged(name);
      for (const key of accepted)
        recordAdmin(services, c, { action: 'tool.accept', server: name, key });
      announce(services, { type: 'server.changed', server: name });
    }
    return c.json({ server: name, accepted });
  });

  return app;
}
