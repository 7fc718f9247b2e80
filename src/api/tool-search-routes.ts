import { Hono } from 'hono';
import { z } from 'zod';
import { CofferError } from '../domain/errors.js';
import type { ToolSearch } from '../domain/ports.js';
import { DEFAULT_SEARCH_LIMIT, MAX_QUERY_LENGTH, MAX_SEARCH_LIMIT } from '../domain/tool-search.js';
import type { ApiServices } from './api-services.js';
import { parseInput } from './parse-request.js';

const searchQuerySchema = z
  .object({
    q: z
      .string()
      .trim()
      .min(1, 'q (what to search for) must not be empty')
      .max(MAX_QUERY_LENGTH, `q must be at most ${MAX_QUERY_LENGTH} characters`),
    limit: z
      .string()
      .regex(/^\d{1,3}$/, 'limit must be a whole number')
      .transform(Number)
      .refine(
        (value) => value >= 1 && value <= MAX_SEARCH_LIMIT,
        `limit must be between 1 and ${MAX_SEARCH_LIMIT}`,
      )
      .optional(),
    server: z.string().min(1, 'server must not be empty').optional(),
  })
  .strict();

/**
 * GET /tools/search?q=&limit=&server=: the enabled tools of every enabled server (or of
 * `server`) ranked for `q`, by the same code as the built-in coffer__search_tools.
 * `unavailable` names servers that could not be listed, so "no match" is not confused
 * with "not searched".
 */
export function toolSearchRoutes(services: ApiServices): Hono {
  const app = new Hono();
  const search = (): ToolSearch => {
    if (services.toolSearch === undefined)
      throw new CofferError('NOT_FOUND', 'This daemon has no tool search');
    return services.toolSearch;
  };

  app.get('/tools/search', async (c) => {
    const input = parseInput(searchQuerySchema, c.req.query());
    const result = await search().search({
      query: input.q,
      limit: input.limit ?? DEFAULT_SEARCH_LIMIT,
      ...(input.server === undefined ? {} : { server: input.server }),
    });
    return c.json({ query: input.q, ...result });
  });

  return app;
}
