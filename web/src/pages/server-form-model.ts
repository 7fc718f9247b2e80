import type { SecretRow, Server, Transport } from '../api/types.js';
import { toPairs, toRecord, type Pair } from '../components/pairs-editor.js';

/** What the add/edit form holds; strings as typed, turned into an API body on submit. */
export interface FormState {
  readonly name: string;
  readonly transport: Transport;
  readonly command: string;
  readonly args: string;
  /** False when the server's arguments cannot be shown one per line (argsFitLines). */
  readonly argsFit: boolean;
  readonly cwd: string;
  readonly url: string;
  readonly env: Pair[];
  readonly headers: Pair[];
  readonly secrets: Pair[];
  readonly enabled: boolean;
  readonly autoEnable: boolean;
  readonly shared: boolean;
}

/** The trade-off of sharing, in one line (docs/ARCHITECTURE.md, "ADR-005 amended again"). */
export const SHARED_HINT =
  'One connection for every agent: good for stateless tools (fetch, search, docs). It cannot ask agents for sampling, elicitation or roots, and its subscriptions and log level are shared.';

export const emptyForm: FormState = {
  name: '',
  transport: 'stdio',
  command: '',
  args: '',
  argsFit: true,
  cwd: '',
  url: '',
  env: [],
  headers: [],
  secrets: [],
  enabled: true,
  autoEnable: true,
  shared: false,
};

export const secretKind = (transport: Transport): 'env' | 'header' =>
  transport === 'stdio' ? 'env' : 'header';

export function formFromServer(server: Server, stored: readonly SecretRow[]): FormState {
  const names = server.transport === 'stdio' ? server.secret_env : server.secret_headers;
  const have = new Set(stored.filter((s) => s.stored).map((s) => s.name));
  return {
    name: server.name,
    transport: server.transport,
    command: server.command ?? '',
    args: server.args.join('\n'),
    argsFit: argsFitLines(server.args),
    cwd: server.cwd ?? '',
    url: server.url ?? '',
    env: toPairs(server.env),
    headers: toPairs(server.headers),
    secrets: names.map((name) => ({ name, value: '', stored: have.has(name) })),
    enabled: server.enabled,
    autoEnable: server.auto_enable_new_capabilities,
    shared: server.shared,
  };
}

const text = (value: string): string | undefined =>
  value.trim() === '' ? undefined : value.trim();

/**
 * The definition as the API takes it. Blank fields are left out, so the API's own
 * validation ("a stdio server needs a command") is what the user reads, next to the field.
 */
export function definitionOf(form: FormState, editing: boolean): Record<string, unknown> {
  const stdio = form.transport === 'stdio';
  const secretNames = form.secrets.map((s) => s.name.trim()).filter((name) => name !== '');
  // On edit, null clears a field the other transport does not have.
  const optional = (value: string | undefined) => value ?? (editing ? null : undefined);
  const body: Record<string, unknown> = {
    ...(editing ? {} : { name: form.name.trim(), enabled: form.enabled }),
    transport: form.transport,
    command: optional(stdio ? text(form.command) : undefined),
    args: stdio
      ? form.args
          .split('\n')
          .map((a) => a.trim())
          .filter((a) => a !== '')
      : [],
    env: stdio ? toRecord(form.env) : {},
    cwd: optional(stdio ? text(form.cwd) : undefined),
    url: optional(stdio ? undefined : text(form.url)),
    headers: stdio ? {} : toRecord(form.headers),
    secret_env: stdio ? secretNames : [],
    secret_headers: stdio ? [] : secretNames,
    auto_enable_new_capabilities: form.autoEnable,
    shared: form.shared,
  };
  return Object.fromEntries(Object.entries(body).filter(([, value]) => value !== undefined));
}

/**
 * What an edit sends: the fields the user changed, and nothing else. The form shows some
 * values in a way that cannot be read back exactly (an argument with a line break in it,
 * a blank or a padded one), and a field left as it was must be saved as it was.
 */
export function editedDefinition(form: FormState, initial: FormState): Record<string, unknown> {
  const before = definitionOf(initial, true);
  const after = definitionOf(form, true);
  return Object.fromEntries(
    Object.entries(after).filter(([key, value]) => !sameJson(value, before[key])),
  );
}

const sameJson = (a: unknown, b: unknown): boolean => JSON.stringify(a) === JSON.stringify(b);

/**
 * Whether arguments read back as they are from the box, one per line: none holds a line
 * break, none is blank, none starts or ends with a space.
 */
export function argsFitLines(args: readonly string[]): boolean {
  return args.every((arg) => arg !== '' && !arg.includes('\n') && arg.trim() === arg);
}

/**
 * What the rows of names and values would lose on the way to the API, which takes them as
 * an object: a value without a name, and a name given twice (only the last would stay).
 * Keyed as the API's field errors are, so each shows under its own rows.
 */
export function pairErrors(form: FormState): Record<string, string> {
  const stdio = form.transport === 'stdio';
  const groups: [string, readonly Pair[]][] = [
    [stdio ? 'env' : 'headers', stdio ? form.env : form.headers],
    ['secrets', form.secrets],
  ];
  const errors: Record<string, string> = {};
  for (const [field, pairs] of groups) {
    const problem = pairProblem(pairs);
    if (problem !== undefined) errors[field] = problem;
  }
  return errors;
}

function pairProblem(pairs: readonly Pair[]): string | undefined {
  const seen = new Set<string>();
  for (const [index, pair] of pairs.entries()) {
    const name = pair.name.trim();
    if (name === '' && pair.value !== '')
      return `Row ${index + 1} has a value but no name: name it, or remove the row`;
    if (name !== '' && seen.has(name)) return `${name} is given twice: keep one row of it`;
    seen.add(name);
  }
  return undefined;
}

/** Secrets with a value typed in: the ones to send to the keychain. */
export const secretsToStore = (form: FormState): Pair[] =>
  form.secrets.filter((s) => s.name.trim() !== '' && s.value !== '');
