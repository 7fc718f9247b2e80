import { Hono } from 'hono';
import { z } from 'zod';
import { CofferError } from '../domain/errors.js';
import type { ActivityQuery, ActivityRepository } from '../domain/ports.js';
import { guardEvents } from '../domain/secret-refusals.js';
import { parseSince } from '../domain/time-window.js';
import type { ApiServices } from './api-services.js';
import { parseInput } from './parse-request.js';

export const DEFAULT_ACTIVITY_LIMIT = 100;
export const MAX_ACTIVITY_LIMIT = 1000;

const whole = (label: string, max: number) =>
  z
    .string()
    .regex(/^\d{1,12}$/, `${label} must be a whole number`)
    .transform(Number)
    .refine((value) => value >= 1 && value <= max, `${label} must be between 1 and ${max}`);

const activityQuerySchema = z
  .object({
    server: z.string().min(1, 'server must not be empty').optional(),
    since: z.string().optional(),
    outcome: z.enum(['ok', 'error']).optional(),
    guard: z.enum(['any', ...guardEvents]).optional(),
    limit: whole('limit', MAX_ACTIVITY_LIMIT).optional(),
    before_id: whole('before_id', Number.MAX_SAFE_INTEGER).optional(),
  })
  .strict();

/**
 * GET /activity: what agents called and what was changed, newest first. Filters:
 * `server`, `since` (`30m`, `1h`, `2d` or ISO time), `outcome` (ok|error), `guard`
 * (`any` or one secret-guard event: the calls the guard refused, flagged or redacted); paging:
 * `limit` (default 100, at most 1000) and `before_id` (the `next_before_id` of the
 * previous page, null on the last one).
 */
export function activityRoutes(services: ApiServices): Hono {
  const app = new Hono();
  const repository = (): ActivityRepository => {
    if (services.activity === undefined)
      throw new CofferError('NOT_FOUND', 'This daemon keeps no activity log');
    return services.activity;
  };

  app.get('/activity', async (c) => {
    const input = parseInput(activityQuerySchema, c.req.query());
    const limit = input.limit ?? DEFAULT_ACTIVITY_LIMIT;
    const query: ActivityQuery = {
      limit,
      ...(input.server === undefined ? {} : { server: input.server }),
      ...(input.since === undefined
        ? {}
        : { since: parseSince(input.since, services.clock.now()) }),
      ...(input.outcome === undefined ? {} : { outcome: input.outcome }),
      ...(input.guard === undefined ? {} : { guard: input.guard }),
      ...(input.before_id === undefined ? {} : { before_id: input.before_id }),
    };
    const rows = await repository().query(query);
    const last = rows.at(-1);
    return c.json({
      activity: rows,
      next_before_id: rows.length === limit && last !== undefined ? last.id : null,
    });
  });

  return app;
}
