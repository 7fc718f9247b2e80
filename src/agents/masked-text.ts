import { documentFromText } from './documents/load-document.js';
import { isSkipped, type AgentDefinition, type ConfigLocation } from './types.js';

/**
 * Agent files hold tokens in `env` and `headers`: before a file's text is shown (the
 * UI's preview of an install), every such value of every entry becomes `***`. A value
 * is replaced where it stands as a quoted string, so the layout of the file still shows.
 */

function valuesOf(agent: AgentDefinition, location: ConfigLocation, text: string): string[] {
  let servers: Record<string, unknown>;
  try {
    servers = documentFromText(text, location.format).servers(location.serversKey) ?? {};
  } catch {
    return [];
  }
  return Object.values(servers).flatMap((raw) => {
    const parsed = agent.parseEntry(raw);
    if (isSkipped(parsed)) return [];
    return [...Object.values(parsed.env), ...Object.values(parsed.headers)];
  });
}

function quotedForms(value: string): string[] {
  // JSON and TOML basic strings escape alike; TOML literal strings are single-quoted.
  return [JSON.stringify(value), `'${value}'`];
}

/** The texts with every env and header value masked; undefined (no file) stays undefined. */
export function maskValues(
  agent: AgentDefinition,
  location: ConfigLocation,
  texts: readonly (string | undefined)[],
): (string | undefined)[] {
  const present = texts.filter((text): text is string => text !== undefined);
  const values = new Set(present.flatMap((text) => valuesOf(agent, location, text)));
  const forms = [...values].filter((value) => value !== '').flatMap(quotedForms);
  // Longest first: a value that contains another is masked whole.
  forms.sort((a, b) => b.length - a.length);
  return texts.map((text) =>
    text === undefined
      ? undefined
      : forms.reduce((masked, form) => masked.split(form).join('"***"'), text),
  );
}
