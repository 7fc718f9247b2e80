import type { JsonObject } from '../domain/ports.js';
import type { Namespace } from './namespace.js';
import { isObject } from './protocol-eras.js';
import { exposeItemUri } from './result-uris.js';

/** The Skills extension (SEP-2640): a server's skills, each a directory of resources. */
export const SKILLS_EXTENSION = 'io.modelcontextprotocol/skills';

/** The Skills extension's settings an upstream declared (`{ directoryRead: true }`), if any. */
export function skillsCapabilityOf(capabilities: JsonObject): JsonObject | undefined {
  const extensions = capabilities['extensions'];
  const skills = isObject(extensions) ? extensions[SKILLS_EXTENSION] : undefined;
  return isObject(skills) ? skills : undefined;
}

/** Whether an upstream declared the Skills extension (it answers skills/list and skills/get). */
export function declaresSkills(capabilities: JsonObject): boolean {
  return skillsCapabilityOf(capabilities) !== undefined;
}

/**
 * One skill entry as the client sees it: the SKILL.md URI and every file's URI exposed
 * (`skill://<server>/<rest>` for the conventional scheme), so the client reads them back
 * through Coffer. Digests, sizes and the frontmatter pass untouched: they describe the
 * files' bytes, which reads relay unchanged (but for the secret guard's redaction, which
 * a host's digest check then catches). Undefined for an entry with no URI.
 */
export function exposeSkill(
  skill: unknown,
  server: string,
  namespace: Namespace,
): JsonObject | undefined {
  if (!isObject(skill) || typeof skill['uri'] !== 'string') return undefined;
  const resources = skill['resources'];
  return {
    ...skill,
    uri: namespace.expose(server, 'resource', skill['uri']),
    // "dynamic" (files not enumerated) passes as it is.
    resources: Array.isArray(resources)
      ? resources.map((file: unknown) => exposeItemUri(file, server, namespace))
      : resources,
  };
}

/** A skills/get result: its one entry exposed. */
export function exposeSkillResult(
  result: JsonObject,
  server: string,
  namespace: Namespace,
): JsonObject {
  const skill = exposeSkill(result['skill'], server, namespace);
  return skill === undefined ? result : { ...result, skill };
}
