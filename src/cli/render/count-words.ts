import type { CapabilityCounts } from '../../domain/ports.js';

/** "1 prompt", "3 tools". */
export function plural(count: number, one: string): string {
  return `${count} ${one}${count === 1 ? '' : 's'}`;
}

/** "17 tools, 1 prompt, 1 resource": a server's counts as `mcp show` and `mcp test` say them. */
export function countsText(counts: CapabilityCounts): string {
  return [
    plural(counts.tools, 'tool'),
    plural(counts.prompts, 'prompt'),
    plural(counts.resources, 'resource'),
  ].join(', ');
}
