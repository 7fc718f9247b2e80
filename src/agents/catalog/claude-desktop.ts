import { join } from 'node:path';
import { readEntry, shimEntry } from '../entry-reading.js';
import { appConfigDir } from '../platform-paths.js';
import type { AgentDefinition } from '../types.js';

/**
 * Claude Desktop: one user file, `mcpServers` of local commands. Anthropic documents
 * macOS and Windows; Linux builds are unofficial and use the XDG config directory.
 */
export const claudeDesktop: AgentDefinition = {
  id: 'claude-desktop',
  displayName: 'Claude Desktop',
  docs: 'https://modelcontextprotocol.io/docs/develop/connect-local-servers',
  locations: (context) => [
    {
      scope: 'user',
      path: join(appConfigDir(context), 'Claude', 'claude_desktop_config.json'),
      format: 'json',
      serversKey: ['mcpServers'],
    },
  ],
  markers: (context) => [join(appConfigDir(context), 'Claude')],
  parseEntry: (raw) => readEntry(raw),
  shimEntry: (launch) => shimEntry(launch),
};
