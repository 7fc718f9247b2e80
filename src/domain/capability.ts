import { CofferError } from './errors.js';

/**
 * A capability is one tool, prompt, resource or resource template an upstream offers.
 * Its key is the upstream's own identifier (tool name, prompt name, resource URI,
 * template URI template): the only stable identity it has (ADR-004).
 */
export const capabilityTypes = ['tool', 'prompt', 'resource', 'resource_template'] as const;
export type CapabilityType = (typeof capabilityTypes)[number];

/** The persisted part of a capability: the user's choice, never its schema. */
export interface CapabilityPreference {
  readonly server: string;
  readonly type: CapabilityType;
  readonly key: string;
  readonly enabled: boolean;
  readonly first_seen_at: string;
  readonly last_seen_at: string;
}

/** A call to a server the user switched off, with the command that switches it on. */
export function serverDisabled(server: string): CofferError {
  return new CofferError('SERVER_DISABLED', `Server "${server}" is disabled`, {
    hint: `enable it with \`coffer mcp enable ${server}\``,
    data: { server },
  });
}

/** The code a refused call gets, per capability type. */
export const disabledCode = {
  tool: 'TOOL_DISABLED',
  prompt: 'PROMPT_DISABLED',
  resource: 'RESOURCE_DISABLED',
  resource_template: 'RESOURCE_DISABLED',
} as const;

/** The field of a server's capabilities (GET /servers/:name/capabilities) that lists this type. */
export const listingField = {
  tool: 'tools',
  prompt: 'prompts',
  resource: 'resources',
  resource_template: 'resource_templates',
} as const;

/** The CLI flag that toggles a capability of this type. */
export const toggleFlag = {
  tool: '--tool',
  prompt: '--prompt',
  resource: '--resource',
  resource_template: '--resource',
} as const;
