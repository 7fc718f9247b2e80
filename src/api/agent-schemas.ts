import { z } from 'zod';

/**
 * Request bodies of /agents/:id/…: the scope of the agent's config to change (as
 * `--scope` of `coffer agents …`), and the flags of the matching CLI command.
 */
const scopes = z.enum(['user', 'project', 'local']);
const scope = scopes.default('user');

export const agentChangeSchema = z
  .object({
    scope,
    /** install: also remove the entries imported from this file into Coffer. */
    replace: z.boolean().default(false),
    /** The preview's `before_sha256`: the write is refused if the file changed since. */
    expected_sha256: z
      .string()
      .regex(/^[0-9a-f]{64}$/, 'expected_sha256 is a sha256 in hex')
      .nullable()
      .optional(),
  })
  .strict();

/** Bound on pasted text: a README's snippet is a few hundred bytes. */
const MAX_PASTED = 256 * 1024;

export const agentImportSchema = z
  .object({
    /** The agent's config to read (default user); not with `text`. */
    scope: scopes.optional(),
    /** Give servers whose name Coffer already has a free name instead of skipping them. */
    rename: z.boolean().default(false),
    /** Text in the agent's format (a server README's snippet), read instead of its config. */
    text: z
      .string()
      .min(1, 'text is empty: paste the JSON of the server')
      .max(MAX_PASTED, `text is longer than ${MAX_PASTED} characters`)
      .optional(),
  })
  .strict()
  .refine((input) => input.text === undefined || input.scope === undefined, {
    message: 'scope and text name two different sources: give one of them',
    path: ['text'],
  });
