import type { ToolSearchHit } from '../../domain/ports.js';
import type { Colors } from './colors.js';

/** Descriptions can be paragraphs; a result list shows the first sentence-ish. */
const DESCRIPTION_CHARS = 160;

/**
 * One search hit as a few lines: the name to call, its server, a short description and
 * its parameters (`*` marks required ones), which is what a person picks a tool by.
 */
export function renderToolHit(hit: ToolSearchHit, rank: number, colors: Colors): string {
  const lines = [
    `${colors.dim(`${rank}.`)} ${colors.bold(hit.name)} ${colors.dim(`(${hit.server})`)}`,
  ];
  const description = shortened(hit.description);
  if (description !== '') lines.push(`   ${description}`);
  const parameters = parameterList(hit.inputSchema);
  if (parameters !== '') lines.push(`   ${colors.dim('params:')} ${parameters}`);
  return `${lines.join('\n')}\n`;
}

function shortened(text: string): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length <= DESCRIPTION_CHARS ? flat : `${flat.slice(0, DESCRIPTION_CHARS - 1)}…`;
}

function parameterList(schema: Record<string, unknown>): string {
  const properties = schema['properties'];
  if (properties === null || typeof properties !== 'object') return '';
  const required = new Set(Array.isArray(schema['required']) ? schema['required'] : []);
  return Object.keys(properties)
    .map((name) => (required.has(name) ? `${name}*` : name))
    .join(', ');
}
