import { CofferError } from './errors.js';

/** What Coffer does before a tool runs: run it, ask the user first, or refuse it. */
export const toolPolicies = ['allow', 'ask', 'deny'] as const;
export type ToolPolicy = (typeof toolPolicies)[number];

/** The default for a server's destructive tools, until the user says otherwise. */
export const DEFAULT_DESTRUCTIVE_POLICY: ToolPolicy = 'ask';

/** A server's policies: its default for destructive tools, and each tool's own choice. */
export interface ServerPolicies {
  readonly destructive: ToolPolicy;
  readonly tools: ReadonlyMap<string, ToolPolicy>;
}

export function parseToolPolicy(value: unknown, what = 'the policy'): ToolPolicy {
  if (typeof value === 'string' && (toolPolicies as readonly string[]).includes(value))
    return value as ToolPolicy;
  throw new CofferError('INVALID_INPUT', `${what} must be one of ${toolPolicies.join(', ')}`, {
    hint: 'allow runs the tool, ask asks you first through the agent, deny refuses it',
  });
}

/**
 * Whether a tool says it may destroy something: `destructiveHint: true` and not
 * `readOnlyHint: true`. Annotations are the server's claims, so they can only make Coffer
 * ask more, never less: a tool without them is not treated as destructive (the spec's
 * default for destructiveHint is true, but every tool would then ask, and people would
 * click through), and a per-tool policy covers the rest.
 */
export function isDestructive(tool: Readonly<Record<string, unknown>> | undefined): boolean {
  const annotations = tool?.['annotations'];
  if (annotations === null || typeof annotations !== 'object') return false;
  const { destructiveHint, readOnlyHint } = annotations as Record<string, unknown>;
  return destructiveHint === true && readOnlyHint !== true;
}

/** The policy that applies to one tool: the user's own for it, else by its annotations. */
export function effectivePolicy(
  policies: ServerPolicies,
  key: string,
  tool: Readonly<Record<string, unknown>> | undefined,
): ToolPolicy {
  return policies.tools.get(key) ?? (isDestructive(tool) ? policies.destructive : 'allow');
}
