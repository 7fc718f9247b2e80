import { findCredentialShapes } from '../domain/credential-shapes.js';

/**
 * Which env variables and headers hold secrets, and so move to the keychain on import.
 * Names decide (`*TOKEN*`, `*KEY*`, `*SECRET*`, `Authorization`, …), then values that
 * look like well-known credentials, then the user (`--secret NAME`). Erring towards
 * "secret" is the safe side: a value in the keychain still reaches the server.
 */

const SECRET_WORDS = [
  'TOKEN',
  'KEY',
  'SECRET',
  'PASSWORD',
  'PASSWD',
  'CREDENTIAL',
  'AUTH',
  'COOKIE',
];
const SECRET_SEGMENTS = new Set(['PAT', 'PWD', 'PASS', 'SESSION', 'PRIVATE']);

/** Prefixes of credentials issued by common services (GitHub, OpenAI, Slack, GitLab, AWS, …). */
const SECRET_VALUE =
  /^(bearer\s+\S|basic\s+\S|gh[pousr]_|github_pat_|sk-|xox[abposr]-|glpat-|AKIA[0-9A-Z]{12}|AIza[0-9A-Za-z_-]{20})/i;

export function secretName(name: string): boolean {
  const upper = name.toUpperCase();
  if (SECRET_WORDS.some((word) => upper.includes(word))) return true;
  return upper.split(/[^A-Z0-9]+/).some((segment) => SECRET_SEGMENTS.has(segment));
}

/** A known prefix, or any shape the server store refuses as a plain value (credential-shapes.ts). */
export function secretValue(value: string): boolean {
  return SECRET_VALUE.test(value.trim()) || findCredentialShapes(value).length > 0;
}

/** Names the user marked, compared case-insensitively (headers are). */
export function isSecret(name: string, value: string, marked: ReadonlySet<string>): boolean {
  return marked.has(name.toLowerCase()) || secretName(name) || secretValue(value);
}

/**
 * `${VAR}`, `${env:VAR}`, `${input:id}`, or a whole value `$VAR`, maybe after a scheme
 * (`Bearer $GITHUB_PAT`, as Gemini CLI headers have it): text the agent expands and Coffer
 * cannot. (A `$` inside other text, as in a password, is not a placeholder.)
 */
const BARE_REFERENCE = /^([A-Za-z][A-Za-z0-9_-]*\s+)?\$[A-Za-z_][A-Za-z0-9_]*$/;

export function hasPlaceholder(value: string): boolean {
  return /\$\{[^}]+\}/.test(value) || BARE_REFERENCE.test(value.trim());
}

/** Fill-ins a README's example leaves for the reader (after an optional `Bearer `). */
const STAND_IN = [
  /<[^<>]+>/, // <YOUR_TOKEN>, Bearer <token>
  /^(your|my)([-_ ][^\s]*)?$/i, // YOUR_API_KEY, your-token-here
  /[-_ ]here$/i, // paste_token_here, API_KEY_HERE
  /^(x{4,}|\*{4,}|\.{3,}|…)$/i, // xxxx, ****, ...
  /^(change[-_]?me|replace[-_]?me|todo|tbd|placeholder)$/i,
];

/**
 * A stand-in for a value, not a value: `"GITHUB_TOKEN": "<YOUR_TOKEN>"`, as the snippets in
 * servers' READMEs have it. Stored as a secret, it would reach the server as its token.
 */
export function isStandIn(value: string): boolean {
  const text = value.trim().replace(/^bearer\s+/i, '');
  return STAND_IN.some((pattern) => pattern.test(text));
}

/** What an import and `coffer mcp add` say of a stand-in, in the same words. */
export function standInNote(label: string, name: string, value: string): string {
  return `${label} ${name} is a stand-in (${JSON.stringify(value)}), not a value: nothing is stored; set it before use`;
}

/**
 * Why a value is no value to store, when it is not: a README's stand-in, or a secret the
 * agent fills in itself (`${env:GITHUB_TOKEN}`, `Bearer ${input:token}`), which Coffer
 * cannot; passed as written, the text would reach the server as its token. The secret is
 * then named and left for the user to set.
 */
export function fillInNote(
  label: string,
  name: string,
  value: string,
  marked: ReadonlySet<string>,
): string | undefined {
  if (isStandIn(value)) return standInNote(label, name, value);
  if (hasPlaceholder(value) && isSecret(name, '', marked))
    return `${label} ${name} is filled in by the agent (${JSON.stringify(value)}), which Coffer cannot do: nothing is stored; set it before use`;
  return undefined;
}
