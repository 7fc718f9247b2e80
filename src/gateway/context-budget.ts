import { toCofferError } from '../domain/errors.js';
import { exposedName } from '../domain/naming.js';
import type {
  CapabilityListing,
  ContextBudget,
  ContextBudgetReader,
  JsonObject,
  ListSize,
  ServerListSize,
} from '../domain/ports.js';
import type { ServerRecord } from '../domain/server-definition.js';
import { callToolDefinition, searchToolDefinition } from './builtin-tools.js';
import { capabilityKinds } from './capability-kinds.js';
import { needsTasks } from './task-only-tools.js';

export interface ContextBudgetDeps {
  /** The enabled servers. */
  readonly servers: () => Promise<readonly ServerRecord[]>;
  /** One server's live tools with their preferences (the admin catalog). */
  readonly tools: (server: string) => Promise<CapabilityListing>;
}

function sizeOf(tools: readonly JsonObject[]): ListSize {
  const chars = JSON.stringify({ tools }).length;
  return { tools: tools.length, chars, tokens: Math.round(chars / 4) };
}

/** The tools an aggregated session lists for one server: enabled, prefixed, task-free. */
function exposed(server: string, listing: CapabilityListing): JsonObject[] {
  return listing.items.flatMap((view) => {
    const definition = view.definition;
    if (!view.enabled || definition === null || needsTasks(capabilityKinds.tool, definition))
      return [];
    return [{ ...definition, name: exposedName(server, view.key) }];
  });
}

async function serverSize(deps: ContextBudgetDeps, server: string) {
  let listing: CapabilityListing;
  try {
    listing = await deps.tools(server);
  } catch (error) {
    const { code, message } = toCofferError(error);
    listing = { status: 'could-not-load', error: { code, message }, items: [] };
  }
  if (listing.status === 'could-not-load') {
    const size: ServerListSize = {
      server,
      status: 'could-not-load',
      error: listing.error,
      tools: 0,
      chars: 0,
      tokens: 0,
    };
    return { size, tools: [] };
  }
  const tools = exposed(server, listing);
  return { size: { server, status: 'ok' as const, ...sizeOf(tools) }, tools };
}

/**
 * What `tools/list` costs a model, per server and in total, in full and lean mode, as
 * the README measures it (characters / 4 of the JSON result), read live through the
 * admin catalog. A server's own figure is its tools alone; the totals are of the whole
 * list, built-in tools included.
 */
export function contextBudgetReader(deps: ContextBudgetDeps): ContextBudgetReader {
  return {
    async contextBudget(): Promise<ContextBudget> {
      const servers = await deps.servers();
      const sized = await Promise.all(servers.map((server) => serverSize(deps, server.name)));
      return {
        servers: sized.map((entry) => entry.size),
        full: sizeOf([searchToolDefinition('full'), ...sized.flatMap((entry) => entry.tools)]),
        lean: sizeOf([searchToolDefinition('lean'), callToolDefinition()]),
      };
    },
  };
}
