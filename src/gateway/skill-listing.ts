import { CofferError } from '../domain/errors.js';
import type { JsonObject } from '../domain/ports.js';
import type { ServerRecord } from '../domain/server-definition.js';
import { CACHE_HINTS } from './modern-results.js';
import type { Namespace } from './namespace.js';
import { declaresSkills, exposeSkill } from './skill-results.js';
import type { RoutedRequestOptions } from './upstream-forward.js';

export interface SkillListingDeps {
  /** The enabled servers this session serves. */
  readonly servers: () => Promise<readonly ServerRecord[]>;
  /** What a server's upstream declared (connecting it). */
  readonly capabilities: (server: ServerRecord) => Promise<JsonObject>;
  readonly forward: (
    server: ServerRecord,
    method: string,
    params: JsonObject,
    options: RoutedRequestOptions,
  ) => Promise<JsonObject>;
  /** Whether the client may read this exposed URI (the user's resource preferences). */
  readonly readable: (exposedUri: string) => Promise<boolean>;
  readonly namespace: Namespace;
  /** How long one server may take to list its skills, as for a list (the list deadline). */
  readonly timeoutMs: number;
  /** Pages read from one upstream at most (a server whose cursor never ends). */
  readonly maxPages?: number;
}

const DEFAULT_MAX_PAGES = 50;

/**
 * skills/list over every server that serves skills: each upstream's pages walked, its
 * entries exposed under the session's namespace, on one page. A skill whose SKILL.md the
 * user disabled (a resource preference) is not listed, as its read would be refused; a
 * server that cannot list, or not before the list deadline, is absent, as in the other
 * lists. Cache hints are Coffer's own (modern-results.ts): the user may switch a server
 * off at any moment.
 */
export class SkillListing {
  constructor(private readonly deps: SkillListingDeps) {}

  async list(params: JsonObject | undefined, options: RoutedRequestOptions): Promise<JsonObject> {
    if (params?.['cursor'] !== undefined)
      throw new CofferError(
        'INVALID_INPUT',
        'skills/list: Coffer lists every skill on one page and gave no cursor; list again without one',
      );
    const servers = await this.deps.servers();
    const perServer = await Promise.all(
      servers.map((server) => this.withinDeadline(this.serverSkills(server, options))),
    );
    return { skills: perServer.flat(), ...CACHE_HINTS };
  }

  /**
   * One server's skills, or none once the list deadline passes or it fails: a server
   * still starting, or gone, does not hold the others' listing up.
   */
  private async withinDeadline(skills: Promise<JsonObject[]>): Promise<JsonObject[]> {
    let timer: NodeJS.Timeout | undefined;
    const deadline = new Promise<JsonObject[]>((resolve) => {
      timer = setTimeout(() => resolve([]), this.deps.timeoutMs);
    });
    try {
      return await Promise.race([skills.catch(() => []), deadline]);
    } finally {
      clearTimeout(timer);
    }
  }

  private async serverSkills(
    server: ServerRecord,
    options: RoutedRequestOptions,
  ): Promise<JsonObject[]> {
    if (!declaresSkills(await this.deps.capabilities(server))) return [];
    const pageOptions = { ...options, timeoutMs: this.deps.timeoutMs };
    const skills: JsonObject[] = [];
    let cursor: string | undefined;
    for (let page = 0; page < (this.deps.maxPages ?? DEFAULT_MAX_PAGES); page += 1) {
      const params = cursor === undefined ? {} : { cursor };
      const result = await this.deps.forward(server, 'skills/list', params, pageOptions);
      skills.push(...(await this.readableSkills(result['skills'], server.name)));
      const next = result['nextCursor'];
      if (typeof next !== 'string') break;
      cursor = next;
    }
    return skills;
  }

  private async readableSkills(entries: unknown, server: string): Promise<JsonObject[]> {
    if (!Array.isArray(entries)) return [];
    const exposed = entries
      .map((entry: unknown) => exposeSkill(entry, server, this.deps.namespace))
      .filter((skill) => skill !== undefined);
    const readable = await Promise.all(
      exposed.map((skill) => this.deps.readable(skill['uri'] as string)),
    );
    return exposed.filter((_, index) => readable[index] === true);
  }
}
