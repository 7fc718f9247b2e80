import type { CapabilityCounts } from '../../domain/ports.js';

/** "1 prompt", "3 tools". */
export function plural(count: number, one: string): string {
  return `${count} ${one}${count === 1 ? '' : 's'}`;
}

/**
 * "17 tools, 1 prompt, 1 resource, 2 resource templates": a server's counts as `mcp show`
 * and `mcp test` say them; templates only when there are some.
 */
export function countsText(counts: CapabilityCounts): string {
  const templates = counts.resource_templates ?? 0;
  return [
    plural(counts.tools, 'tool'),
    plural(counts.prompts, 'prompt'),
    plural(counts.resources, 'resource'),
    ...(templates === 0 ? [] : [plural(templates, 'resource template')]),
  ].join(', ');
}
