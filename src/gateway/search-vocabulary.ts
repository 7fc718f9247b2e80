import { stem, tokenize } from './search-text.js';

/**
 * The everyday words people use for what tools call by their own names: "make a new
 * folder" for `create_directory`, "remember that Alice works at Acme" for a memory
 * server's `create_entities`. BM25 only scores words a tool contains, so each indexed
 * tool also gets, in low-weighted fields, the everyday words of the tool words it
 * contains (document expansion). Expanding the tool rather than the query keeps each
 * query word counting once, so a query word with many relatives does not outscore a
 * plain match.
 *
 * Why a word list and not a model: the local embedding models on npm either fetch their
 * weights from a hub at run time (not allowed for a local gateway that must work
 * offline) or ship tens of megabytes and cost seconds to load, and the index is built
 * per session; WordNet-sized thesauri are as large and mostly wrong in this domain (a
 * "file" is not a "rank"). A few hundred words covering the domains MCP servers serve
 * (files, code hosting, chat, browsers, maps, databases, memory, web search) cost
 * nothing to load and are easy to read and extend. See docs/SEARCH.md.
 *
 * Each entry: tool words (as tool names and descriptions say them) → the words people
 * use instead. Entries are general, never about one tool; add phrasings to the dev part
 * of test/fixtures/tool-search-eval.json when extending them.
 */
const LEXICON: readonly (readonly [tool: string, everyday: string])[] = [
  // What a tool does.
  ['create new', 'make add start build generate setup open new store record save'],
  ['add insert append', 'put attach include note record remember store save keep memorize'],
  ['observation', 'fact note detail remember know record keep mind memorize'],
  ['write overwrite', 'save store put replace output'],
  ['read', 'open view show see print display load contents look recall'],
  ['get retrieve fetch', 'show see view look check find load read'],
  ['list listing', 'show all every which enumerate browse see'],
  ['search find query', 'find look lookup locate seek discover where recall know'],
  ['delete remove', 'erase forget drop destroy clear wipe unlink trash stop'],
  ['update edit modify', 'change alter replace tweak fix patch set mark close reopen swap'],
  ['move rename', 'relocate transfer mv put'],
  ['merge', 'ship land accept combine integrate'],
  ['push commit', 'upload publish save'],
  ['post send', 'tell say announce share write message'],
  ['reply', 'answer respond'],
  ['navigate url', 'go visit open browse load website site link address'],
  ['click', 'press tap hit button tick checkbox'],
  ['fill input', 'type enter write form box field text'],
  ['select', 'choose pick dropdown option'],
  ['hover', 'mouse point over'],
  ['evaluate execute javascript', 'run script code js'],
  ['screenshot', 'capture snap picture image snapshot photo'],
  ['echo', 'repeat parrot mirror back say'],
  ['sum', 'add plus total calculate arithmetic math'],
  ['fork', 'copy clone duplicate'],
  ['toggle', 'turn switch enable disable on off'],
  ['compress gzip', 'zip archive shrink pack'],
  // Things tools act on.
  ['directory directories', 'folder folders dir'],
  ['file', 'document doc readme'],
  ['size sizes', 'big biggest large largest small space bytes'],
  ['tree', 'hierarchy structure nested outline'],
  ['metadata info information', 'details modified date permissions created'],
  ['media image', 'picture photo audio sound png jpg'],
  ['allowed access', 'permitted access visible'],
  ['repository repositories', 'repo project codebase'],
  ['issue issues', 'bug ticket problem report task'],
  ['pull', 'pr prs'],
  ['review reviews', 'approve feedback reviewer'],
  ['comment comments', 'note remark reply'],
  ['status checks', 'build ci passing failing green red tests'],
  ['commits history', 'log changes recent past previous earlier'],
  ['user users', 'person people member someone teammate account who'],
  ['profile', 'bio details'],
  ['channel channels', 'room chat'],
  ['message messages', 'text post chat note'],
  ['reaction emoji', 'react smiley like'],
  ['thread', 'conversation discussion'],
  ['memory graph knowledge', 'remember recall memorize know forget mind'],
  ['entity entities', 'person people thing fact someone'],
  ['relation relations', 'link connection connect relationship between'],
  ['node nodes', 'thing record'],
  ['sql database', 'db table rows count select'],
  ['web online', 'internet google news look'],
  [
    'local places place',
    'nearby near around restaurant shop cafe hotel bar business nearest closest',
  ],
  ['geocode coordinates', 'latitude longitude location gps map position where'],
  ['address', 'street where location'],
  ['directions', 'route way drive walk get'],
  ['distance travel', 'far long drive time'],
  ['elevation', 'altitude height high level'],
  ['details', 'hours phone rating reviews'],
  ['thinking thoughts', 'reason think plan step steps carefully'],
  ['elicitation', 'ask question form prompt'],
  ['sampling llm', 'generate model completion'],
  ['environment', 'env settings config configuration'],
  ['logging', 'log logs debug'],
  ['subscriber subscription', 'notifications subscribe'],
  ['operation progress', 'slow long task'],
  ['browser page', 'website site web tab'],
];

/**
 * Stem of a word → its relatives, without the word's own forms. The tool words of one
 * entry are synonyms of each other ("delete remove"), so each also relates to the rest.
 */
function relatives(
  pairs: readonly (readonly [word: string, related: readonly string[]])[],
): ReadonlyMap<string, readonly string[]> {
  const map = new Map<string, string[]>();
  for (const [word, related] of pairs) {
    const key = stem(word);
    const known = map.get(key) ?? [];
    for (const relative of related) if (stem(relative) !== key) known.push(relative);
    map.set(key, known);
  }
  return map;
}

const wordsOf = (text: string) => text.split(' ');

/** Stem of a tool word → the everyday words for it and its synonyms: what tools index. */
const EVERYDAY = relatives(
  LEXICON.flatMap(([tool, everyday]) =>
    wordsOf(tool).map((word) => [word, [...wordsOf(everyday), ...wordsOf(tool)]] as const),
  ),
);

/** Stem of an everyday or tool word → the tool words it stands for: what queries add. */
const TOOL_WORDS = relatives(
  LEXICON.flatMap(([tool, everyday]) =>
    [...wordsOf(everyday), ...wordsOf(tool)].map((word) => [word, wordsOf(tool)] as const),
  ),
);

/**
 * Tool text repeats a small vocabulary and stemming is the costly part of a lookup:
 * each token is looked up once (bounded, like search-text's term cache).
 */
const MAX_CACHED = 50_000;
const everydayCache = new Map<string, readonly string[] | null>();
const toolCache = new Map<string, readonly string[] | null>();

function lookup(
  words: ReadonlyMap<string, readonly string[]>,
  cache: Map<string, readonly string[] | null>,
  token: string,
): readonly string[] | null {
  const known = cache.get(token);
  if (known !== undefined) return known;
  const found = words.get(stem(token.toLowerCase())) ?? null;
  if (cache.size >= MAX_CACHED) cache.clear();
  cache.set(token, found);
  return found;
}

/**
 * The tool words for the everyday words of a query, space-separated, one per stem
 * ("directory directories" is searched once).
 */
export function toolWords(query: string): string {
  const found = new Map<string, string>();
  for (const token of tokenize(query)) {
    for (const word of lookup(TOOL_WORDS, toolCache, token) ?? []) {
      const key = stem(word);
      if (!found.has(key)) found.set(key, word);
    }
  }
  return [...found.values()].join(' ');
}

/**
 * The everyday words for the tool words in `text`, each once, space-separated: what a
 * tool's alias fields index.
 */
export function everydayWords(text: string): string {
  const found = new Set<string>();
  for (const token of tokenize(text))
    for (const word of lookup(EVERYDAY, everydayCache, token) ?? []) found.add(word);
  return [...found].join(' ');
}
