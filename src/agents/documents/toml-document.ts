import { edit, initSync, parse } from '@rainbowatcher/toml-edit-js';
import { isObject } from '../entry-fields.js';
import type { ConfigDocument, ParseProblem } from './config-document.js';
import { usesCrlf } from './text-layout.js';

/**
 * TOML through toml_edit (Rust, compiled to WebAssembly): the format-preserving editor
 * Cargo uses. It keeps comments, blank lines and the order of tables, writes a new
 * server as `[mcp_servers.<name>]` next to its siblings, and removes a table with its
 * sub-tables. It emits LF only, so a CRLF file is edited as LF and converted back.
 */

let ready = false;

function ensureWasm(): void {
  if (ready) return;
  initSync();
  ready = true;
}

export class TomlSyntaxError extends Error {
  constructor(readonly problem: ParseProblem) {
    super(problem.message);
  }
}

/** toml_edit reports "TOML parse error at line L, column C" then a snippet, then the reason. */
function problemOf(error: unknown): ParseProblem {
  const text = error instanceof Error ? error.message : String(error);
  const at = /line (\d+), column (\d+)/.exec(text);
  const lines = text.split('\n').filter((line) => line.trim() !== '');
  const reason = lines[lines.length - 1]?.trim() ?? 'invalid TOML';
  return {
    line: at === null ? 1 : Number(at[1]),
    column: at === null ? 1 : Number(at[2]),
    message: reason,
  };
}

export function parseToml(text: string): Record<string, unknown> {
  ensureWasm();
  let value: unknown;
  try {
    value = parse(text);
  } catch (error) {
    throw new TomlSyntaxError(problemOf(error));
  }
  return isObject(value) ? value : {};
}

/** A key path segment: bare when TOML allows it, else a quoted string. */
function keySegment(part: string): string {
  return /^[A-Za-z0-9_-]+$/.test(part) ? part : JSON.stringify(part);
}

function valueAt(root: unknown, key: readonly string[]): unknown {
  let node = root;
  for (const part of key) {
    if (!isObject(node)) return undefined;
    node = node[part];
  }
  return node;
}

export function tomlDocument(text: string): ConfigDocument {
  const root = parseToml(text);
  const crlf = usesCrlf(text);
  const lf = crlf ? text.replace(/\r\n/g, '\n') : text;
  const finalNewline = lf === '' || lf.endsWith('\n');
  const change = (path: string, value: unknown) => {
    ensureWasm();
    const next = edit(lf, path, value, { inline: false, finalNewline });
    return tomlDocument(crlf ? next.replace(/\n/g, '\r\n') : next);
  };
  return {
    format: 'toml',
    text,
    servers(key) {
      const map = valueAt(root, key);
      if (map === undefined) return undefined;
      if (!isObject(map)) {
        throw new TomlSyntaxError({
          line: 1,
          column: 1,
          message: `"${key.join('.')}" is not a table`,
        });
      }
      return map;
    },
    withServer: (key, name, value) => change([...key, name].map(keySegment).join('.'), value),
    withoutServer: (key, name) => change([...key, name].map(keySegment).join('.'), undefined),
  };
}
