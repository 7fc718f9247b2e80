/**
 * How tool text becomes search terms. Tool names are identifiers (`create_or_update_file`,
 * `listDirectoryWithSizes`) and queries are English ("create a new file"), so both go
 * through the same splitting, stop-word removal and light stemming before BM25 sees
 * them: a query term only scores when it meets the same term in a tool.
 */

/** Words that carry no meaning in a tool query ("I want to …", "a tool that …"). */
const STOP_WORDS = new Set(
  (
    'a about an and are as at be been by can could do does for from get gets had has have how i ' +
    'if in into is it its let me my need of on or our please should so some such than that ' +
    'the their them then there these this those to tool tools use used uses using want was ' +
    'we what when where which who will with would you your'
  ).split(' '),
);

/** Identifiers and prose alike: split on case changes, digits-to-letters and punctuation. */
export function tokenize(text: string): string[] {
  return text
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .replace(/([A-Z]+)([A-Z][a-z])/g, '$1 $2')
    .split(/[^\p{L}\p{N}]+/u)
    .filter((token) => token.length > 0);
}

/** Tool text repeats a small vocabulary: stemming each word once makes indexing cheap. */
const processed = new Map<string, string | null>();
const MAX_PROCESSED = 50_000;

/** One term as it is indexed and searched; null drops it. */
export function processTerm(term: string): string | null {
  const known = processed.get(term);
  if (known !== undefined) return known;
  const lower = term.toLowerCase();
  const result = STOP_WORDS.has(lower) ? null : stem(lower);
  if (processed.size >= MAX_PROCESSED) processed.clear();
  processed.set(term, result);
  return result;
}

/** Every term of a text, processed: what the index stores for it. */
export function terms(text: string): string[] {
  const result: string[] = [];
  for (const token of tokenize(text)) {
    const term = processTerm(token);
    if (term !== null) result.push(term);
  }
  return result;
}

const SUFFIXES: readonly [suffix: string, replacement: string, minStem: number][] = [
  ['ational', 'at', 3],
  ['ation', 'at', 3],
  ['ing', '', 3],
  ['ies', 'y', 2],
  ['sses', 'ss', 2],
  ['ed', '', 3],
  ['er', '', 4],
  ['ly', '', 4],
];

/**
 * A small English suffix stripper, not Porter: it only has to map the forms that occur
 * in tool text and queries ("files"/"file", "searching"/"search", "created"/"create",
 * "navigation"/"navigate") onto one term. Terms are never shown to anyone, so the stems
 * need not be words.
 */
export function stem(word: string): string {
  if (word.length <= 3 || /\d/.test(word)) return word;
  let stemmed = pluralStripped(word);
  // Two passes, so "filtering" → "filter" → "filt" meets "filter" → "filt".
  for (let pass = 0; pass < 2; pass++) stemmed = suffixStripped(stemmed);
  // "create" and "creat(ed|ing)" must meet: drop a final silent e.
  if (stemmed.length > 4 && stemmed.endsWith('e')) stemmed = stemmed.slice(0, -1);
  return stemmed;
}

function suffixStripped(word: string): string {
  for (const [suffix, replacement, minStem] of SUFFIXES) {
    if (word.endsWith(suffix) && word.length - suffix.length >= minStem)
      return undoubled(word.slice(0, -suffix.length)) + replacement;
  }
  return word;
}

function pluralStripped(word: string): string {
  if (/(ss|us|is)$/.test(word)) return word;
  if (/(ch|sh|x|z)es$/.test(word)) return word.slice(0, -2);
  if (word.endsWith('s') && !word.endsWith('ies') && !word.endsWith('sses'))
    return word.slice(0, -1);
  return word;
}

/** "mapp(ing)" → "map", "embedd(ed)" → "embed"; but "fill", "pass" and "buzz" stay. */
function undoubled(stem: string): string {
  const last = stem.at(-1);
  if (last === undefined || stem.length < 4 || 'lsz'.includes(last)) return stem;
  return stem.at(-2) === last && !'aeiou'.includes(last) ? stem.slice(0, -1) : stem;
}
