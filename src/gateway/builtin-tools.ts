import { CofferError } from '../domain/errors.js';
import { BUILTIN_SERVER_NAME, exposedName } from '../domain/naming.js';
import type { JsonObject } from '../domain/ports.js';
import type { ToolsMode } from '../domain/tools-mode.js';
import { DEFAULT_SEARCH_LIMIT, MAX_QUERY_LENGTH, MAX_SEARCH_LIMIT } from '../domain/tool-search.js';
import type { ToolHit } from './tool-index.js';

/**
 * Coffer's own tools in aggregated sessions. Their prefix is a reserved server name
 * (naming.ts), so no upstream tool can ever take their names.
 */
export const SEARCH_TOOL = exposedName(BUILTIN_SERVER_NAME, 'search_tools');
export const CALL_TOOL = exposedName(BUILTIN_SERVER_NAME, 'call_tool');

export function isBuiltinTool(name: unknown): boolean {
  return name === SEARCH_TOOL || name === CALL_TOOL;
}

/**
 * The description is the only thing that tells a model when to search, so it names the
 * situation ("no listed tool fits", "only two tools are listed") and the next step.
 */
const searchDescriptions: Record<ToolsMode, string> = {
  full:
    'Find the right tool among every MCP server connected through Coffer. Use it when no ' +
    'tool you can see obviously fits the task, or to choose between many similar tools. ' +
    'Describe the task in plain words (e.g. "open a GitHub issue", "read a text file"). ' +
    'Returns the best matches, each with its name, description and input schema; call a ' +
    'match directly by its name.',
  lean:
    'Find the tool for a task among every MCP server connected through Coffer. Only this ' +
    'tool and coffer__call_tool are listed, to keep your context small: search first ' +
    'whenever a task may need an external tool (files, code hosting, browsers, databases, ' +
    'chat, maps, ...), describing the task in plain words (e.g. "open a GitHub issue"). ' +
    'Returns the best matches, each with its name, description and input schema; then run ' +
    'one with coffer__call_tool.',
};

/**
 * The built-in tool definitions are built once: every tools/list of every session lists
 * the same objects, which lets a session reuse its serialised list while nothing changed.
 */
export function searchToolDefinition(mode: ToolsMode): JsonObject {
  return searchDefinitions[mode];
}

export function callToolDefinition(): JsonObject {
  return callDefinition;
}

function buildSearchToolDefinition(mode: ToolsMode): JsonObject {
  return {
    name: SEARCH_TOOL,
    title: 'Search tools',
    description: searchDescriptions[mode],
    inputSchema: {
      type: 'object',
      properties: {
        query: {
          type: 'string',
          description: 'What you want to do, in plain words, e.g. "list open pull requests"',
        },
        limit: {
          type: 'integer',
          minimum: 1,
          maximum: MAX_SEARCH_LIMIT,
          description: `How many tools to return (default ${DEFAULT_SEARCH_LIMIT})`,
        },
        server: {
          type: 'string',
          description: 'Only tools of this server (the part of a tool name before "__")',
        },
      },
      required: ['query'],
    },
    annotations: { readOnlyHint: true, openWorldHint: false },
  };
}

function buildCallToolDefinition(): JsonObject {
  return {
    name: CALL_TOOL,
    title: 'Call a tool',
    description:
      'Run a tool found with coffer__search_tools: give its exact name (e.g. ' +
      '"github__create_issue") and arguments that match the input schema the search ' +
      "returned. Answers with that tool's own result.",
    inputSchema: {
      type: 'object',
      properties: {
        name: { type: 'string', description: 'The tool name, as coffer__search_tools gave it' },
        arguments: { type: 'object', description: "The tool's arguments" },
      },
      required: ['name'],
    },
  };
}

const searchDefinitions: Record<ToolsMode, JsonObject> = {
  full: buildSearchToolDefinition('full'),
  lean: buildSearchToolDefinition('lean'),
};
const callDefinition = buildCallToolDefinition();

export interface SearchArguments {
  readonly query: string;
  readonly limit: number;
  readonly server?: string;
}

/** Checks what a model sent; a mistake becomes INVALID_INPUT, which it can read and fix. */
export function parseSearchArguments(args: unknown): SearchArguments {
  const object = args !== null && typeof args === 'object' ? (args as JsonObject) : {};
  const { query, limit, server } = object;
  if (typeof query !== 'string' || query.trim() === '')
    throw new CofferError('INVALID_INPUT', '"query" must be a non-empty string');
  if (query.length > MAX_QUERY_LENGTH)
    throw new CofferError(
      'INVALID_INPUT',
      `"query" must be at most ${MAX_QUERY_LENGTH} characters`,
    );
  if (limit !== undefined && !isLimit(limit))
    throw new CofferError(
      'INVALID_INPUT',
      `"limit" must be a whole number from 1 to ${MAX_SEARCH_LIMIT}`,
    );
  if (server !== undefined && typeof server !== 'string')
    throw new CofferError('INVALID_INPUT', '"server" must be a string');
  return {
    query,
    limit: limit ?? DEFAULT_SEARCH_LIMIT,
    ...(server === undefined || server === '' ? {} : { server }),
  };
}

function isLimit(value: unknown): value is number {
  return Number.isInteger(value) && (value as number) >= 1 && (value as number) <= MAX_SEARCH_LIMIT;
}

/** The answer of coffer__search_tools: JSON text for every client, structured for new ones. */
export function searchResult(hits: readonly ToolHit[], query: SearchArguments): JsonObject {
  const tools = hits.map((hit) => ({
    name: hit.name,
    server: hit.server,
    ...(hit.title === undefined ? {} : { title: hit.title }),
    description: hit.description,
    inputSchema: hit.inputSchema,
  }));
  const found: JsonObject =
    tools.length > 0
      ? { tools }
      : {
          tools,
          note: `No enabled tool matches "${query.query}"${query.server === undefined ? '' : ` on server "${query.server}"`}: try other words.`,
        };
  return { content: [{ type: 'text', text: JSON.stringify(found) }], structuredContent: found };
}

/** A tool error the model can read (MCP: argument mistakes are results, not protocol errors). */
export function toolError(message: string): JsonObject {
  return { content: [{ type: 'text', text: message }], isError: true };
}
