import type { Counts, Server } from './api/types.js';

export const plural = (count: number, word: string): string =>
  `${count} ${word}${count === 1 ? '' : 's'}`;

/** `templates`: the resource templates, where a page has listed them itself. */
export function formatCounts(
  counts: Counts | null | undefined,
  templates = counts?.resource_templates,
): string {
  if (counts === null || counts === undefined) return 'Not listed yet';
  // A kind not listed yet is left out: unknown is not 0.
  const known = (count: number | undefined, word: string): string[] =>
    count === undefined ? [] : [plural(count, word)];
  const words = [
    ...known(counts.tools, 'tool'),
    ...known(counts.prompts, 'prompt'),
    ...known(counts.resources, 'resource'),
    ...(templates === undefined || templates === 0 ? [] : [plural(templates, 'resource template')]),
  ];
  return words.length === 0 ? 'Not listed yet' : words.join(' · ');
}

/** What the server runs or dials, in one line. */
export function target(server: Server): string {
  if (server.transport === 'stdio') return [server.command ?? '', ...server.args].join(' ');
  return server.url ?? '';
}

export function timeOf(iso: string): string {
  const date = new Date(iso);
  const sameDay = date.toDateString() === new Date().toDateString();
  return sameDay
    ? date.toLocaleTimeString([], { hour: '2-digit', minute: '2-digit', second: '2-digit' })
    : date.toLocaleString([], { dateStyle: 'short', timeStyle: 'medium' });
}

export function duration(ms: number | null): string {
  if (ms === null) return '—';
  return ms < 1000 ? `${Math.round(ms)} ms` : `${(ms / 1000).toFixed(ms < 10_000 ? 2 : 1)} s`;
}
