import type { JsonObject } from '../domain/ports.js';
import { pageSize, textOf, type ResultPage } from './result-pages.js';

/** Room kept in every cut answer for the note that says what was cut. */
const NOTE_RESERVE = 1_500;
/** Room for the result's other fields (`isError`, `_meta`, …); bigger ones keep `isError` only. */
const FIELDS_RESERVE = 1_000;
/** Tokens are estimated as characters / 4, like the context budget page. */
export const CHARS_PER_TOKEN = 4;
/** Groups of remaining pages the note describes one by one. */
const NOTE_GROUPS = 8;

/** The size of a tool result as a client counts it: its texts, and the JSON of the rest. */
export function resultChars(result: JsonObject): number {
  const { content, structuredContent, ...fields } = result;
  let chars = jsonChars(fields);
  if (Array.isArray(content))
    for (const item of content) chars += textOf(item)?.length ?? JSON.stringify(item).length;
  if (structuredContent !== undefined) chars += JSON.stringify(structuredContent).length;
  return chars;
}

/** The largest page of a result cut at `budgetTokens`: what a cut answer can always show. */
export function pageCharsFor(budgetTokens: number): number {
  return budgetTokens * CHARS_PER_TOKEN - NOTE_RESERVE - FIELDS_RESERVE;
}

export interface CutOptions {
  readonly budgetTokens: number;
  /** The kept result's URI; page N is `<uri>/N`. */
  readonly uri: string;
  /** How long it is kept, as the note says it ("30 minutes"). */
  readonly keptFor: string;
}

/**
 * The answer that replaces an oversized tool result: its leading pages while they fit
 * (text pages of one item joined back into that item), structuredContent only when all
 * content fits and it does too, and a last text item saying what was cut and where the
 * rest is. Pure: `pages` are the result's own (splitPages at pageCharsFor(budget)).
 */
export function cutResult(
  result: JsonObject,
  pages: readonly ResultPage[],
  options: CutOptions,
): JsonObject {
  const { content, structuredContent, ...fields } = result;
  const room = pageCharsFor(options.budgetTokens);
  let shown = 0;
  let used = 0;
  for (const page of pages) {
    if (page.source === 'structured' || used + pageSize(page) > room) break;
    used += pageSize(page);
    shown += 1;
  }
  const contentPages = pages.filter((page) => page.source !== 'structured').length;
  const keepStructured =
    structuredContent !== undefined &&
    shown === contentPages &&
    used + JSON.stringify(structuredContent).length <= room;
  if (keepStructured) shown = pages.length;
  const items = Array.isArray(content) ? (content as unknown[]) : [];
  const note = cutNote(pages, shown, resultChars(result), options);
  return {
    ...(jsonChars(fields) <= FIELDS_RESERVE ? fields : flagOnly(fields)),
    content: [...shownContent(items, pages.slice(0, shown)), { type: 'text', text: note }],
    ...(keepStructured ? { structuredContent } : {}),
  };
}

/** Shown pages as content items: consecutive text pages of one item become that item again. */
function shownContent(items: readonly unknown[], pages: readonly ResultPage[]): unknown[] {
  const out: unknown[] = [];
  let index = 0;
  while (index < pages.length) {
    const page = pages[index]!;
    index += 1;
    if (page.kind === 'item') {
      out.push(page.item);
      continue;
    }
    if (page.source === 'structured') continue;
    let text = page.text;
    while (index < pages.length && pages[index]!.source === page.source) {
      const next = pages[index]!;
      text += next.kind === 'text' ? next.text : '';
      index += 1;
    }
    out.push({ ...(items[page.source] as JsonObject), text });
  }
  return out;
}

function cutNote(
  pages: readonly ResultPage[],
  shown: number,
  chars: number,
  options: CutOptions,
): string {
  const total = pages.length;
  const tokens = Math.round(chars / CHARS_PER_TOKEN).toLocaleString('en-US');
  const budget = options.budgetTokens.toLocaleString('en-US');
  const seen = shown === 0 ? `none of its ${total} pages` : `${range(1, shown)} of ${total}`;
  const parts = [
    `[Coffer cut this tool result: it is about ${tokens} tokens, over the ${budget}-token limit.`,
    `Shown: ${shown === 0 ? seen : `page ${seen}`}.`,
    `The whole result is kept for ${options.keptFor} as ${options.uri}:`,
    `read page N with resources/read of ${options.uri}/N.`,
  ];
  const continued = shown > 0 && shown < total && pages[shown]!.source === pages[shown - 1]!.source;
  if (continued) parts.push(`The text cut off above goes on at page ${shown + 1}.`);
  parts.push(`Not shown: ${remainingGroups(pages, shown)}.]`);
  return parts.join(' ');
}

/** "2–4 text, 5 image, 6 structuredContent (JSON)": what each remaining page holds. */
function remainingGroups(pages: readonly ResultPage[], shown: number): string {
  const groups: string[] = [];
  let start = shown;
  while (start < pages.length && groups.length < NOTE_GROUPS) {
    let end = start;
    while (end + 1 < pages.length && pages[end + 1]!.source === pages[start]!.source) end += 1;
    groups.push(`${range(start + 1, end + 1)} ${describe(pages[start]!)}`);
    start = end + 1;
  }
  if (start < pages.length) groups.push(`${range(start + 1, pages.length)} more`);
  return groups.length === 0 ? "nothing but the result's own oversized fields" : groups.join(', ');
}

function describe(page: ResultPage): string {
  if (page.kind === 'text')
    return page.source === 'structured' ? 'structuredContent (JSON)' : 'text';
  const type = page.item['type'];
  return typeof type === 'string' ? type.replace(/[^a-z_]/g, '').slice(0, 20) : 'item';
}

function range(first: number, last: number): string {
  return first === last ? `${first}` : `${first}–${last}`;
}

function flagOnly(fields: JsonObject): JsonObject {
  return fields['isError'] === true ? { isError: true } : {};
}

function jsonChars(value: JsonObject): number {
  return Object.keys(value).length === 0 ? 0 : JSON.stringify(value).length;
}
