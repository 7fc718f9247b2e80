import type { JsonObject } from '../domain/ports.js';
import type { GatewayContext } from './gateway-context.js';
import type { UpstreamPool } from './upstream-pool.js';

/** What the aggregated endpoint declares to a 2025 session. */
export const AGGREGATED_CAPABILITIES: JsonObject = {
  tools: { listChanged: true },
  prompts: { listChanged: true },
  resources: { subscribe: true, listChanged: true },
  completions: {},
  logging: {},
};

/**
 * What the aggregated endpoint declares to a 2026-07-28 client: list changes reach it
 * through subscriptions/listen; resource subscriptions and logging/setLevel are not
 * offered on that era.
 */
export const MODERN_AGGREGATED_CAPABILITIES: JsonObject = {
  tools: { listChanged: true },
  prompts: { listChanged: true },
  resources: { listChanged: true },
  completions: {},
};

/**
 * What a single-server endpoint declares: its upstream's own capabilities (minus tasks),
 * plus resources when oversized results are kept as resources. Connects the upstream;
 * undefined when the server is not enabled.
 */
export async function singleServerCapabilities(
  context: GatewayContext,
  pool: UpstreamPool,
  server: string,
): Promise<JsonObject | undefined> {
  const [definition] = await context.enabledServers(server);
  if (definition === undefined) return undefined;
  const upstream = await pool.get(definition);
  const results = context.resultLimit && { resources: {} };
  return { ...results, ...mirroredCapabilities(upstream.serverCapabilities) };
}

function mirroredCapabilities(upstream: JsonObject): JsonObject {
  const mirrored: JsonObject = {};
  for (const name of ['tools', 'prompts', 'resources', 'completions']) {
    if (upstream[name] !== undefined) mirrored[name] = upstream[name];
  }
  return mirrored;
}
