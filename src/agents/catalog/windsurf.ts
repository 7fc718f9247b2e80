import { join } from 'node:path';
import { readEntry, shimEntry, type EntryDialect } from '../entry-reading.js';
import type { AgentDefinition } from '../types.js';

/** Remote servers are written with `serverUrl`; `url` is accepted too. */
const dialect: EntryDialect = {
  urlKeys: [{ key: 'serverUrl' }, { key: 'url' }],
  headersKey: 'headers',
};

/**
 * Windsurf (Cascade): one user file, `~/.codeium/windsurf/mcp_config.json` on every
 * platform (`%USERPROFILE%` on Windows), key `mcpServers`.
 */
export const windsurf: AgentDefinition = {
  id: 'windsurf',
  displayName: 'Windsurf',
  docs: 'https://docs.windsurf.com/windsurf/cascade/mcp',
  locations: (context) => [
    {
      scope: 'user',
      path: join(context.homeDir, '.codeium', 'windsurf', 'mcp_config.json'),
      format: 'jsonc',
      serversKey: ['mcpServers'],
    },
  ],
  markers: (context) => [join(context.homeDir, '.codeium', 'windsurf')],
  parseEntry: (raw) => readEntry(raw, dialect),
  shimEntry: (launch) => shimEntry(launch),
};
