import { join } from 'node:path';
import { readEntry, shimEntry } from '../entry-reading.js';
import type { AgentDefinition } from '../types.js';

/** Cursor: `~/.cursor/mcp.json` and `.cursor/mcp.json` in a project, key `mcpServers`. */
export const cursor: AgentDefinition = {
  id: 'cursor',
  displayName: 'Cursor',
  docs: 'https://cursor.com/docs/mcp',
  locations: (context) => [
    {
      scope: 'user',
      path: join(context.homeDir, '.cursor', 'mcp.json'),
      format: 'jsonc',
      serversKey: ['mcpServers'],
    },
    {
      scope: 'project',
      path: join(context.cwd, '.cursor', 'mcp.json'),
      format: 'jsonc',
      serversKey: ['mcpServers'],
    },
  ],
  markers: (context) => [join(context.homeDir, '.cursor')],
  parseEntry: (raw) => readEntry(raw),
  pathVariables: true,
  shimEntry: (launch) => shimEntry(launch),
};
