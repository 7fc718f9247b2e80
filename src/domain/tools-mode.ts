import { CofferError } from './errors.js';

/**
 * How an aggregated session shows its tools. `full` lists every enabled tool (plus
 * `coffer__search_tools`); `lean` lists only `coffer__search_tools` and
 * `coffer__call_tool`, so a model's context is not filled with hundreds of schemas it
 * may never use. Chosen per client (`/mcp?mode=lean`), defaulting to the daemon's setting.
 */
export const toolsModes = ['full', 'lean'] as const;

export type ToolsMode = (typeof toolsModes)[number];

export const DEFAULT_TOOLS_MODE: ToolsMode = 'full';

/** `where` names the source in the message ("COFFER_TOOLS_MODE", "the mode parameter"). */
export function parseToolsMode(value: string, where: string): ToolsMode {
  const mode = toolsModes.find((candidate) => candidate === value);
  if (mode === undefined)
    throw new CofferError('INVALID_INPUT', `${where} must be "full" or "lean", not "${value}"`);
  return mode;
}
