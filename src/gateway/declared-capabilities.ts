import type { JsonObject } from '../domain/ports.js';
import type { GatewayContext } from './gateway-context.js';
import { isObject } from './protocol-eras.js';
import { SKILLS_EXTENSION, skillsCapabilityOf } from './skill-results.js';
import { TASKS_EXTENSION } from './task-shapes.js';
import type { SessionScope } from './session.js';
import type { UpstreamPool } from './upstream-pool.js';

/**
 * The Skills extension, always declared (connections are lazy, as for tasks): skills/list
 * gathers the upstreams that serve skills, an empty list when none does; skills/get and
 * resources/directory/read go to the server a URI names, which answers or refuses them.
 */
const AGGREGATED_SKILLS: JsonObject = { directoryRead: true };

/** What the aggregated endpoint declares to a 2025 session. */
export const AGGREGATED_CAPABILITIES: JsonObject = {
  tools: { listChanged: true },
  prompts: { listChanged: true },
  resources: { subscribe: true, listChanged: true },
  completions: {},
  logging: {},
  // Coffer answers tasks/list and tasks/cancel itself; which tools run as tasks is each
  // tool's execution.taskSupport, from its upstream (docs/TASKS.md).
  tasks: { list: {}, cancel: {}, requests: { tools: { call: {} } } },
  extensions: { [SKILLS_EXTENSION]: AGGREGATED_SKILLS },
};

/**
 * What the aggregated endpoint declares to a 2026-07-28 client: list changes and resource
 * updates reach it through subscriptions/listen; log lines on a request's own stream when
 * its `_meta` asks (that era has no logging/setLevel); tasks are the tasks extension,
 * always answered (as `tasks` is to sessions: connections are lazy, docs/TASKS.md).
 */
export const MODERN_AGGREGATED_CAPABILITIES: JsonObject = {
  tools: { listChanged: true },
  prompts: { listChanged: true },
  resources: { subscribe: true, listChanged: true },
  completions: {},
  logging: {},
  extensions: { [TASKS_EXTENSION]: {}, [SKILLS_EXTENSION]: AGGREGATED_SKILLS },
};

/** Which era a declaration is for: `tasks` to sessions, the tasks extension to requests. */
export type DeclaredEra = 'session' | 'stateless';

/**
 * What a single-server endpoint declares: its upstream's own capabilities (tasks only to
 * sessions), plus resources when oversized results are kept as resources. Connects the
 * upstream; undefined when the server is not enabled.
 */
export async function singleServerCapabilities(
  context: GatewayContext,
  pool: UpstreamPool,
  server: string,
  era: DeclaredEra,
): Promise<JsonObject | undefined> {
  const [definition] = await context.enabledServers(server);
  if (definition === undefined) return undefined;
  const upstream = await pool.get(definition);
  const results = context.resultLimit && { resources: {} };
  return { ...results, ...mirroredCapabilities(upstream.serverCapabilities, era) };
}

function mirroredCapabilities(upstream: JsonObject, era: DeclaredEra): JsonObject {
  const mirrored: JsonObject = {};
  const names = ['tools', 'prompts', 'resources', 'completions'];
  if (era === 'session') names.push('tasks');
  // A 2026-07-28 request asks for log lines in its own `_meta` (request-logs.ts).
  else names.push('logging');
  for (const name of names) {
    if (upstream[name] !== undefined) mirrored[name] = upstream[name];
  }
  const extensions: JsonObject = {};
  if (era === 'stateless' && runsToolTasks(upstream)) extensions[TASKS_EXTENSION] = {};
  const skills = skillsCapabilityOf(upstream);
  if (skills !== undefined) extensions[SKILLS_EXTENSION] = skills;
  if (Object.keys(extensions).length > 0) mirrored['extensions'] = extensions;
  return mirrored;
}

/** The upstream runs tools/call as 2025-11-25 tasks: the extension can be served for it. */
export function runsToolTasks(upstream: JsonObject): boolean {
  const tasks = upstream['tasks'];
  const requests = isObject(tasks) ? tasks['requests'] : undefined;
  const tools = isObject(requests) ? requests['tools'] : undefined;
  return isObject(tools) && tools['call'] !== undefined;
}

/**
 * What an endpoint tells clients about the use of what it serves, at initialize and
 * server/discover: a single-server endpoint passes its upstream's own instructions (it
 * connected the upstream to declare its capabilities); the aggregated one gathers what
 * each enabled server said when last connected (server-instructions.ts).
 */
export async function endpointInstructions(
  context: GatewayContext,
  pool: UpstreamPool,
  scope: SessionScope,
): Promise<string | undefined> {
  if (scope.kind === 'aggregated') {
    const servers = await context.enabledServers();
    return context.instructions?.merged(servers.map(({ name }) => name));
  }
  const [definition] = await context.enabledServers(scope.server);
  if (definition === undefined) return undefined;
  return guardedInstructions(context, (await pool.get(definition)).instructions);
}

/**
 * A server's instructions with the secrets Coffer stores replaced, before they are kept or
 * passed on: they reach the model's prompt, and a server may print what it was given.
 */
export async function guardedInstructions(
  context: GatewayContext,
  instructions: string | undefined,
): Promise<string | undefined> {
  const guard = context.secretGuard;
  return instructions === undefined || guard === undefined
    ? instructions
    : guard.redactText(instructions);
}
