import { CofferError } from '../../domain/errors.js';
import { readIfExists } from '../safe-files.js';
import type { ConfigLocation, FileFormat } from '../types.js';
import type { ConfigDocument, ParseProblem } from './config-document.js';
import { jsonDocument, JsonSyntaxError } from './json-document.js';
import { tomlDocument, TomlSyntaxError } from './toml-document.js';

export type LoadedConfig =
  | { readonly state: 'missing'; readonly document: ConfigDocument }
  | { readonly state: 'present'; readonly document: ConfigDocument }
  | { readonly state: 'malformed'; readonly problem: ParseProblem };

export function documentFromText(text: string, format: FileFormat): ConfigDocument {
  return format === 'toml' ? tomlDocument(text) : jsonDocument(text, format);
}

function syntaxProblem(error: unknown): ParseProblem | undefined {
  if (error instanceof JsonSyntaxError || error instanceof TomlSyntaxError) return error.problem;
  return undefined;
}

/** `<path>:<line>:<column>: <reason>`, the form editors and terminals turn into links. */
export function describeProblem(path: string, problem: ParseProblem): string {
  return `${path}:${problem.line}:${problem.column}: ${problem.message}`;
}

export function malformedError(path: string, problem: ParseProblem): CofferError {
  return new CofferError('INVALID_INPUT', `Cannot read ${describeProblem(path, problem)}`, {
    hint: 'fix the file and run the command again; Coffer did not change it',
    data: { path, line: problem.line, column: problem.column },
  });
}

/**
 * Reads and parses one agent config file, including the server map it names (a map
 * that is not an object is as malformed as a syntax error: Coffer will not edit it).
 */
export function loadConfig(location: ConfigLocation): LoadedConfig {
  return configFromText(location, readIfExists(location.path));
}

/** loadConfig of a text in hand (undefined: no file). */
export function configFromText(location: ConfigLocation, text: string | undefined): LoadedConfig {
  try {
    const document = documentFromText(text ?? '', location.format);
    document.servers(location.serversKey);
    return { state: text === undefined ? 'missing' : 'present', document };
  } catch (error) {
    const problem = syntaxProblem(error);
    if (problem === undefined) throw error;
    return { state: 'malformed', problem };
  }
}

/**
 * loadConfig for callers that stop at a malformed file; with `text`, that text is read in
 * the location's format instead of its file (pasted, or piped to `--file -`).
 */
export function requireConfig(
  location: ConfigLocation,
  text?: string,
): {
  readonly exists: boolean;
  readonly document: ConfigDocument;
} {
  const loaded = text === undefined ? loadConfig(location) : configFromText(location, text);
  if (loaded.state === 'malformed') throw malformedError(location.path, loaded.problem);
  return { exists: loaded.state === 'present', document: loaded.document };
}
