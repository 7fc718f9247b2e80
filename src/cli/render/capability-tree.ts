import type { CapabilityListing, CapabilityView, ServerCapabilities } from '../../domain/ports.js';
import { reviewCommand } from '../../domain/tool-pin.js';
import type { Colors } from './colors.js';
import type { ServerView } from './server-table.js';

/** The sections of a capability tree, in the order users think of them. */
export const capabilitySections = [
  ['tools', 'tools'],
  ['prompts', 'prompts'],
  ['resources', 'resources'],
  ['resource_templates', 'resource templates'],
] as const satisfies readonly (readonly [keyof ServerCapabilities, string])[];

/** What `--tree` shows under a server: its lists, or why they could not be fetched. */
export type TreeCapabilities =
  | { readonly ok: true; readonly capabilities: ServerCapabilities }
  | { readonly ok: false; readonly message: string };

/**
 * One item; a tool held back for a changed definition names the command that reviews it.
 * `listed`: the server's list was read, so an item it does not hold is a choice kept for
 * a name the server does not list (a mistyped one, or one it dropped), not a tool.
 */
function itemLine(item: CapabilityView, server: string, colors: Colors, listed: boolean): string {
  const shown = item.enabled ? item.key : `${colors.dim(item.key)} ${colors.yellow('(disabled)')}`;
  const line =
    listed && item.definition === null
      ? `${shown} ${colors.dim('(not listed by the server)')}`
      : shown;
  if (item.held !== true) return line;
  return `${line} ${colors.yellow(`(changed — review: ${reviewCommand(server)})`)}`;
}

function sectionLines(listing: CapabilityListing, server: string, colors: Colors): string[] {
  const listed = listing.status === 'ok';
  const lines = listing.items.map((item) => itemLine(item, server, colors, listed));
  // "could not load" is not "empty" (ADR-004): say which one it is.
  if (listing.status === 'could-not-load')
    lines.unshift(colors.red(`could not load: ${listing.error.message}`));
  else if (listing.status === 'not-supported') lines.push(colors.dim('(not supported)'));
  else if (lines.length === 0) lines.push(colors.dim('(none)'));
  return lines;
}

function branch(lines: readonly string[], indent: string): string[] {
  return lines.map((line, index) => {
    const last = index === lines.length - 1;
    return `${indent}${last ? '└─ ' : '├─ '}${line}`;
  });
}

function serverHeading(server: ServerView, colors: Colors): string {
  const facts = [server.transport, server.enabled ? 'enabled' : 'disabled', server.status.state];
  return `${colors.bold(server.name)} ${colors.dim(`(${facts.join(', ')})`)}`;
}

/** `coffer mcp list --tree`: each server with its capabilities under it. */
export function renderCapabilityTree(
  server: ServerView,
  tree: TreeCapabilities,
  colors: Colors,
): string {
  const out = [serverHeading(server, colors)];
  if (!tree.ok) {
    out.push(...branch([colors.red(`could not load: ${tree.message}`)], ''));
    return `${out.join('\n')}\n`;
  }
  appendSections(server.name, tree.capabilities, colors, out);
  return `${out.join('\n')}\n`;
}

function appendSections(
  server: string,
  capabilities: ServerCapabilities,
  colors: Colors,
  out: string[],
): void {
  capabilitySections.forEach(([field, title], index) => {
    const last = index === capabilitySections.length - 1;
    const listing = capabilities[field];
    // A count only for a real list: known keys of a list that failed are not "all there is".
    const served = listing.items.filter((item) => item.definition !== null).length;
    const count = listing.status === 'ok' ? ` ${colors.dim(`(${served})`)}` : '';
    out.push(`${last ? '└─ ' : '├─ '}${title}${count}`);
    out.push(...branch(sectionLines(listing, server, colors), last ? '   ' : '│  '));
  });
}
