import { join } from 'node:path';
import { isObject } from '../entry-fields.js';
import { readEntry, shimEntry } from '../entry-reading.js';
import { appDataDir, xdgConfigDir } from '../platform-paths.js';
import type { AgentContext, AgentDefinition, ParsedEntry } from '../types.js';

/** Zed keeps `~/.config/zed` on macOS too; Linux honours XDG_CONFIG_HOME. */
function zedDir(context: AgentContext): string {
  switch (context.platform) {
    case 'win32':
      return join(appDataDir(context), 'Zed');
    case 'linux':
      return join(xdgConfigDir(context), 'zed');
    case 'darwin':
      return join(context.homeDir, '.config', 'zed');
  }
}

/**
 * Older Zed releases nested the launch as `command: {path, args, env}` (with
 * `source: "custom"`); servers from Zed extensions carry only their `settings`.
 */
function parseZedEntry(raw: unknown): ParsedEntry {
  if (!isObject(raw)) return readEntry(raw);
  const { command, source, ...rest } = raw;
  if (isObject(command)) {
    const { path, args, env } = command;
    return readEntry({ ...rest, command: path, args, env });
  }
  if (
    command === undefined &&
    raw['url'] === undefined &&
    (source === 'extension' || 'settings' in raw)
  )
    return { skip: 'it comes from a Zed extension; add it to Coffer by hand' };
  return readEntry({ ...rest, ...(command === undefined ? {} : { command }) });
}

/**
 * Zed: `context_servers` in the JSONC settings file (user) and `.zed/settings.json`
 * (project); custom servers are `{command, args, env}` or `{url, headers}`.
 */
export const zed: AgentDefinition = {
  id: 'zed',
  displayName: 'Zed',
  docs: 'https://zed.dev/docs/ai/mcp',
  locations: (context) => [
    {
      scope: 'user',
      path: join(zedDir(context), 'settings.json'),
      format: 'jsonc',
      serversKey: ['context_servers'],
    },
    {
      scope: 'project',
      path: join(context.cwd, '.zed', 'settings.json'),
      format: 'jsonc',
      serversKey: ['context_servers'],
    },
  ],
  markers: (context) => [zedDir(context)],
  parseEntry: parseZedEntry,
  shimEntry: (launch) => shimEntry(launch),
};
