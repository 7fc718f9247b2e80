import type { JsonObject } from '../domain/ports.js';

/**
 * The client capabilities a server→client request needs, by method and params: the
 * capability itself, and the sub-capability its params ask for (2025-11-25 on). A URL-mode
 * elicitation needs `elicitation.url`, a form one `elicitation.form`; a sampling request
 * with `tools` or `toolChoice` needs `sampling.tools`, one that asks for context other
 * than `none` needs `sampling.context`. Servers must not send what the client did not
 * declare; Coffer checks it for them, since its own upstream connections may declare more
 * than the client that a question reaches (the 2026-07-28 bridge declares everything).
 * Undefined: not a request a client answers.
 */
export function neededCapabilities(
  method: string,
  params: JsonObject | undefined,
): readonly string[] | undefined {
  switch (method) {
    case 'roots/list':
      return ['roots'];
    case 'elicitation/create':
      return ['elicitation', params?.['mode'] === 'url' ? 'elicitation.url' : 'elicitation.form'];
    case 'sampling/createMessage':
      return ['sampling', ...samplingNeeds(params)];
    default:
      return undefined;
  }
}

function samplingNeeds(params: JsonObject | undefined): string[] {
  const needs: string[] = [];
  if (params?.['tools'] !== undefined || params?.['toolChoice'] !== undefined)
    needs.push('sampling.tools');
  const context = params?.['includeContext'];
  if (context !== undefined && context !== 'none') needs.push('sampling.context');
  return needs;
}

const present = (value: unknown): boolean => value !== undefined && value !== null;

/**
 * Whether `declared` (a client's capabilities) declares `name` (`elicitation`,
 * `elicitation.url`, …). An `elicitation` naming neither mode is form mode, as the spec
 * keeps it for clients older than the modes.
 */
export function declares(declared: JsonObject | undefined, name: string): boolean {
  const [capability = '', sub] = name.split('.', 2);
  const value = declared?.[capability];
  if (!present(value)) return false;
  if (sub === undefined) return true;
  const subs = typeof value === 'object' ? (value as JsonObject) : {};
  if (capability === 'elicitation' && sub === 'form' && !present(subs['form']))
    return !present(subs['url']);
  return present(subs[sub]);
}

/** The first of a request's needs the client did not declare, if any. */
export function firstUndeclared(
  declared: JsonObject | undefined,
  needs: readonly string[],
): string | undefined {
  return needs.find((name) => !declares(declared, name));
}

/** `elicitation.url` as the capabilities object that declares it: `{ elicitation: { url: {} } }`. */
export function capabilityObject(name: string): JsonObject {
  const [capability = '', sub] = name.split('.', 2);
  return { [capability]: sub === undefined ? {} : { [sub]: {} } };
}

/**
 * Every input capability, with its modes and features: what the 2026-07-28 bridge's own
 * upstream connections declare, so that a 2025 upstream offers all it has (server-everything
 * lists its URL-mode elicitation tool only to a client that declared `elicitation.url`),
 * and each question is then checked against the envelope of the request it belongs to.
 * Frozen: every stateless service hands this one object to its connections.
 */
export const EVERY_INPUT_CAPABILITY: JsonObject = Object.freeze({
  roots: Object.freeze({}),
  sampling: Object.freeze({ tools: Object.freeze({}), context: Object.freeze({}) }),
  elicitation: Object.freeze({ form: Object.freeze({}), url: Object.freeze({}) }),
});
