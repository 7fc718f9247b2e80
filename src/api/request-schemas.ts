import { toolPolicies } from '../domain/tool-policy.js';
import { z } from 'zod';
import { capabilityTypes } from '../domain/capability.js';
import { serverDefinitionSchema } from '../domain/server-definition.js';

/** POST /servers: exactly the domain's definition, so the CLI and the API agree. */
export const createServerSchema = serverDefinitionSchema;

const shape = serverDefinitionSchema.shape;

/**
 * PATCH /servers/:name. Built field by field from the definition's shape without its
 * defaults (an absent field means "unchanged", never "reset to default"); zod cannot
 * .partial() a refined object. `null` clears an optional field, which is how a server
 * moves between stdio and http/sse. Cross-field rules (stdio needs a command, http a
 * url) run on the merged definition, not on the patch alone.
 */
export const patchServerSchema = z
  .object({
    name: z.never({ error: 'a server cannot be renamed; remove it and add it again' }).optional(),
    transport: shape.transport.optional(),
    command: shape.command.unwrap().nullable().optional(),
    args: shape.args.unwrap().optional(),
    env: shape.env.unwrap().optional(),
    cwd: shape.cwd.unwrap().nullable().optional(),
    url: shape.url.unwrap().nullable().optional(),
    headers: shape.headers.unwrap().optional(),
    secret_env: shape.secret_env.unwrap().optional(),
    secret_headers: shape.secret_headers.unwrap().optional(),
    enabled: shape.enabled.unwrap().optional(),
    auto_enable_new_capabilities: shape.auto_enable_new_capabilities.unwrap().optional(),
    shared: shape.shared.unwrap().optional(),
  })
  .strict()
  .refine((patch) => Object.keys(patch).length > 0, { message: 'the patch changes nothing' });

export type ServerPatchInput = z.output<typeof patchServerSchema>;

/** Keys are upstream identifiers (tool names, URIs); the bound keeps one request cheap. */
export const MAX_TOGGLE_KEYS = 1000;
const MAX_KEY_LENGTH = 4096;

export const toggleCapabilitiesSchema = z
  .object({
    type: z.enum(capabilityTypes),
    keys: z
      .array(z.string().min(1, 'a key must not be empty').max(MAX_KEY_LENGTH))
      .min(1, 'give at least one key')
      .max(MAX_TOGGLE_KEYS, `at most ${MAX_TOGGLE_KEYS} keys per request`),
    enabled: z.boolean(),
  })
  .strict();

export type ToggleCapabilitiesInput = z.output<typeof toggleCapabilitiesSchema>;

const policySchema = z.enum(toolPolicies);

/** POST /servers/:name/policies: the destructive default, and tools' own policies (null: forget). */
export const setPoliciesSchema = z
  .object({
    destructive: policySchema.optional(),
    tools: z
      .record(
        z.string().min(1, 'a tool name must not be empty').max(MAX_KEY_LENGTH),
        policySchema.nullable(),
      )
      .refine((tools) => Object.keys(tools).length <= MAX_TOGGLE_KEYS, {
        message: `at most ${MAX_TOGGLE_KEYS} tools per request`,
      })
      .optional(),
  })
  .strict();

export type SetPoliciesInput = z.output<typeof setPoliciesSchema>;

/** POST /servers/:name/reviews: accept one held-back tool's change, or (no tool) all. */
export const acceptReviewSchema = z
  .object({
    tool: z.string().min(1, 'a tool name must not be empty').max(MAX_KEY_LENGTH).optional(),
  })
  .strict();
