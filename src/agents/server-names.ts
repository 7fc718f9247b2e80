import { MAX_SERVER_NAME_LENGTH, serverNameProblem } from '../domain/naming.js';

/** Latin letters that NFKD leaves whole, spelled as their writers do in ASCII. */
const UNDECOMPOSED: Readonly<Record<string, string>> = {
  ø: 'o',
  æ: 'ae',
  œ: 'oe',
  ß: 'ss',
  đ: 'd',
  ł: 'l',
  þ: 'th',
  ð: 'd',
  ı: 'i',
};

/**
 * Agent server names are free text ("GitHub", "my.server"); Coffer's are
 * `^[a-z0-9][a-z0-9_-]*$` without "__". This maps one to the other predictably.
 */
export function toCofferName(original: string): string {
  const name = original
    // "Café" is "cafe", not "caf": accents come apart from their letters and go.
    .normalize('NFKD')
    .replace(/\p{M}+/gu, '')
    .toLowerCase()
    .replace(/[øæœßđłþðı]/g, (letter) => UNDECOMPOSED[letter] ?? letter)
    .replace(/[^a-z0-9_-]+/g, '-')
    .replace(/_{2,}/g, '_')
    .replace(/-{2,}/g, '-')
    .replace(/^[-_]+/, '')
    .slice(0, MAX_SERVER_NAME_LENGTH)
    .replace(/[-_]+$/, '');
  return serverNameProblem(name) === undefined ? name : 'server';
}

/** `name`, or `name-2`, `name-3`, … the first one not taken (kept within the length limit). */
export function freeName(name: string, taken: ReadonlySet<string>): string {
  if (!taken.has(name)) return name;
  for (let n = 2; ; n += 1) {
    const suffix = `-${n}`;
    const candidate = `${name.slice(0, MAX_SERVER_NAME_LENGTH - suffix.length)}${suffix}`;
    if (!taken.has(candidate)) return candidate;
  }
}
