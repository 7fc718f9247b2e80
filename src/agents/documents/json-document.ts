import {
  applyEdits,
  findNodeAtLocation,
  modify,
  parse,
  parseTree,
  printParseErrorCode,
  type FormattingOptions,
  type ModificationOptions,
  type ParseError,
} from 'jsonc-parser';
import { isObject } from '../entry-fields.js';
import type { ConfigDocument, ParseProblem } from './config-document.js';
import { detectIndentation, lineAndColumn, usesCrlf } from './text-layout.js';

/**
 * JSON and JSONC through jsonc-parser, which edits text in place: comments, key order
 * and the formatting of untouched entries survive. The new entry goes first in its map:
 * jsonc-parser reformats the lines an edit touches, and inserting at the top touches
 * only the line that opens the map, not the user's last entry.
 */

export type JsonFlavour = 'json' | 'jsonc';

export function parseJson(text: string, flavour: JsonFlavour): unknown {
  const errors: ParseError[] = [];
  const value: unknown = parse(text, errors, {
    disallowComments: flavour === 'json',
    allowTrailingComma: flavour === 'jsonc',
    allowEmptyContent: true,
  });
  const first = errors[0];
  if (first !== undefined) {
    const where = lineAndColumn(text, first.offset);
    throw new JsonSyntaxError({ ...where, message: describe(printParseErrorCode(first.error)) });
  }
  return value;
}

export class JsonSyntaxError extends Error {
  constructor(readonly problem: ParseProblem) {
    super(problem.message);
  }
}

function describe(code: string): string {
  const words = code.replace(/([a-z])([A-Z])/g, '$1 $2').toLowerCase();
  return words === 'invalid comment token' ? 'comments are not allowed in this file' : words;
}

function formatting(text: string): FormattingOptions {
  return { ...detectIndentation(text), eol: usesCrlf(text) ? '\r\n' : '\n' };
}

/** A minified file stays minified: formatting it would rewrite every byte. */
function isSingleLine(text: string): boolean {
  return text.trim() !== '' && !text.trim().includes('\n');
}

function valueAt(root: unknown, key: readonly string[]): unknown {
  let node = root;
  for (const part of key) {
    if (!isObject(node)) return undefined;
    node = node[part];
  }
  return node;
}

/**
 * How many times `name` is a key of the map at `key`. JSON allows a name twice; the
 * agents, like JSON.parse, read the last, while jsonc-parser edits the first.
 */
function occurrences(text: string, key: readonly string[], name: string): number {
  const tree = parseTree(text, [], { allowTrailingComma: true });
  const map = tree === undefined ? undefined : findNodeAtLocation(tree, [...key]);
  if (map?.type !== 'object') return 0;
  return (map.children ?? []).filter((property) => property.children?.[0]?.value === name).length;
}

/** Windows editors save one; the agents read past it, and uninstall must give it back. */
const BOM = '\uFEFF';

function keepingBom(inner: ConfigDocument): ConfigDocument {
  return {
    format: inner.format,
    text: `${BOM}${inner.text}`,
    servers: (key) => inner.servers(key),
    withServer: (key, name, value) => keepingBom(inner.withServer(key, name, value)),
    withoutServer: (key, name) => keepingBom(inner.withoutServer(key, name)),
  };
}

export function jsonDocument(text: string, flavour: JsonFlavour): ConfigDocument {
  if (text.startsWith(BOM)) return keepingBom(jsonDocument(text.slice(BOM.length), flavour));
  const root = parseJson(text, flavour);
  if (root !== undefined && !isObject(root)) {
    throw new JsonSyntaxError({ line: 1, column: 1, message: 'the file is not a JSON object' });
  }
  const edit = (path: string[], value: unknown, options: ModificationOptions) =>
    jsonDocument(applyEdits(text, modify(text, path, value, options)), flavour);
  const base: ModificationOptions = isSingleLine(text)
    ? {}
    : { formattingOptions: formatting(text) };
  const document: ConfigDocument = {
    format: flavour,
    text,
    servers(key) {
      const map = valueAt(root, key);
      if (map === undefined) return undefined;
      if (!isObject(map)) throw new JsonSyntaxError(notAMap(text, key));
      return map;
    },
    withServer(key, name, value) {
      // modify sets the first copy while the agent reads the last: one entry replaces them all.
      if (occurrences(text, key, name) > 1)
        return document.withoutServer(key, name).withServer(key, name, value);
      if (root === undefined && text.trim() !== '')
        return jsonDocument(afterComments(text, [...key, name], value), flavour);
      const next = edit([...key, name], value, { ...base, getInsertionIndex: () => 0 });
      // A file Coffer creates ends with a newline, like one an editor saves.
      return text.trim() === '' ? jsonDocument(`${next.text}\n`, flavour) : next;
    },
    withoutServer(key, name) {
      const map = valueAt(root, key);
      const first = isObject(map) && Object.keys(map)[0] === name;
      // Without formatting, removing the first entry would pull the next one up onto the
      // line of the opening brace; with it, removing a later entry would reformat the one
      // before. Each case takes the variant that leaves the other entries as they were.
      const next = edit([...key, name], undefined, first ? base : {});
      // Every copy goes: removing only the first would leave the agent reading the last.
      return occurrences(next.text, key, name) > 0 ? next.withoutServer(key, name) : next;
    },
  };
  return document;
}

/**
 * A file of comments alone (VS Code's `// …` in a new mcp.json): jsonc-parser would put
 * the object on one line in front of them. The object goes after them instead, laid out
 * as a file Coffer creates, in the file's line endings.
 */
function afterComments(text: string, path: string[], value: unknown): string {
  const eol = usesCrlf(text) ? '\r\n' : '\n';
  const object = applyEdits('', modify('', path, value, { formattingOptions: formatting(text) }));
  const head = text.endsWith('\n') ? text : `${text}${eol}`;
  return `${head}${object}${eol}`;
}

function notAMap(text: string, key: readonly string[]): ParseProblem {
  const name = key[key.length - 1] ?? '';
  const offset = Math.max(0, text.indexOf(JSON.stringify(name)));
  return { ...lineAndColumn(text, offset), message: `"${key.join('.')}" is not an object` };
}
