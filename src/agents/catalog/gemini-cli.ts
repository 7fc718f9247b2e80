import { join } from 'node:path';
import { readEntry, shimEntry, type EntryDialect } from '../entry-reading.js';
import { always, atMost } from '../harmless-keys.js';
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
  // `trust` skips Gemini's confirmations; the default timeout is 600,000 ms.
  harmlessKeys: { timeout: atMost(600_000), trust: always, description: always },
  shimEntry: (launch) => shimEntry(launch),
};
