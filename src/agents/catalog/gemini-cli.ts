import { join } from 'node:path';
import { readEntry, shimEntry, type EntryDialect } from '../entry-reading.js';
import type { AgentDefinition } from '../types.js';

/** `httpUrl` is Streamable HTTP; a plain `url` is SSE unless `type` says otherwise. */
const dialect: EntryDialect = {
  urlKeys: [
    { key: 'httpUrl', transport: 'http' },
    { key: 'url', transport: 'sse' },
  ],
  headersKey: 'headers',
};

/**
 * Gemini CLI: `mcpServers` in `~/.gemini/settings.json` (user) and
 * `.gemini/settings.json` (project); the settings files accept comments.
 */
export const geminiCli: AgentDefinition = {
  id: 'gemini',
  displayName: 'Gemini CLI',
  docs: 'https://geminicli.com/docs/tools/mcp-server/',
  locations: (context) => [
    {
      scope: 'user',
      path: join(context.homeDir, '.gemini', 'settings.json'),
      format: 'jsonc',
      serversKey: ['mcpServers'],
    },
    {
      scope: 'project',
      path: join(context.cwd, '.gemini', 'settings.json'),
      format: 'jsonc',
      serversKey: ['mcpServers'],
    },
  ],
  markers: (context) => [join(context.homeDir, '.gemini')],
  parseEntry: (raw) => readEntry(raw, dialect),
  shimEntry: (launch) => shimEntry(launch),
};
