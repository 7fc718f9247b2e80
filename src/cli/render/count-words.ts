import type { CapabilityCounts } from '../../domain/ports.js';

/** "1 prompt", "3 tools". */
export function plural(count: number, one: string): string {
  return `${count} ${one}${count === 1 ? '' : 's'}`;
}

/**
 * "17 tools, 1 prompt, 1 resource, 2 resource templates": a server's counts as `mcp show`
 * and `mcp test` say them; templates only when there are some, and a kind not listed yet
 * not at all (unknown is not 0).
 */
export function countsText(counts: CapabilityCounts): string {
  const templates = counts.resource_templates ?? 0;
  const known = (count: number | undefined, one: string): string[] =>
    count === undefined ? [] : [plural(count, one)];
  return [
    ...known(counts.tools, 'tool'),
    ...known(counts.prompts, 'prompt'),
    ...known(counts.resources, 'resource'),
    ...(templates === 0 ? [] : [plural(templates, 'resource template')]),
  ].join(', ');
}
