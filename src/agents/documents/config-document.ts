import type { FileFormat } from '../types.js';

/**
 * One agent config file, parsed, with edits that return a new document and leave every
 * other byte of the file alone. Implementations: JSON/JSONC (jsonc-parser) and TOML
 * (toml_edit). A document that does not parse is never edited: loadDocument reports it.
 */
export interface ConfigDocument {
  readonly format: FileFormat;
  readonly text: string;
  /** The server map at `key`; undefined when absent. */
  servers(key: readonly string[]): Record<string, unknown> | undefined;
  /** Sets `key.name` to `value`, creating the map when needed. */
  withServer(key: readonly string[], name: string, value: unknown): ConfigDocument;
  withoutServer(key: readonly string[], name: string): ConfigDocument;
}

/** Where a file stops parsing, as a user fixes it: path, line, column, reason. */
export interface ParseProblem {
  readonly line: number;
  readonly column: number;
  readonly message: string;
}
