import { Hono } from 'hono';
import { z } from 'zod';
import { CofferError } from '../domain/errors.js';
import type { ToolRunner } from '../domain/ports.js';
import { traceOf } from './request-context.js';
import type { ApiServices } from './api-services.js';
import { parseInput, readJsonBody } from './parse-request.js';
import { requireServer } from './server-lookup.js';

/** Who the playground's calls are, in the activity log. */
export const PLAYGROUND_CLIENT = 'coffer-ui-playground';

export const toolCallSchema = z
  .object({
    tool: z.string().min(1, 'tool must name a tool of the server'),
    arguments: z.record(z.string(), z.unknown()).default({}),
  })
  .strict();

/**
 * POST /servers/:name/call: the UI's tool playground. The call goes through the
 * gateway's admin catalog as an agent's would (preferences enforced, activity
 * recorded); a refused or failed call is still a 200 that carries the error and the
 * activity row it made, because that is what the user asked to see.
 */
export function toolCallRoutes(services: ApiServices): Hono {
  const app = new Hono();
  const runner = (): ToolRunner => {
    if (services.tools === undefined)
      throw new CofferError('NOT_FOUND', 'This daemon has no tool playground');
    return services.tools;
  };

  app.post('/servers/:name/call', async (c) => {
    const name = c.req.param('name');
    const input = parseInput(toolCallSchema, await readJsonBody(c));
    await requireServer(services.servers, name);
    const run = await runner().callTool(name, input.tool, input.arguments, {
      client_name: PLAYGROUND_CLIENT,
      trace_id: traceOf(c).traceId,
    });
    return c.json(run);
  });

  return app;
}
