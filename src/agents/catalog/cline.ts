import { join } from 'node:path';
import { readEntry, shimEntry, type EntryDialect } from '../entry-reading.js';
import { vscodeUserDir } from '../platform-paths.js';
import { always, atMost } from '../harmless-keys.js';
import type { AgentContext, AgentDefinition } from '../types.js';

/** Cline's schema reads a URL entry without `type` as SSE; `streamableHttp` is HTTP. */
const dialect: EntryDialect = {
  urlKeys: [{ key: 'url' }],
  headersKey: 'headers',
  defaultRemote: 'sse',
};

function extensionSettings(context: AgentContext): string {
  return join(vscodeUserDir(context), 'globalStorage', 'saoudrizwan.claude-dev', 'settings');
}

/**
 * Cline: `cline_mcp_settings.json` (key `mcpServers`) in the VS Code extension's global
 * storage, or in `~/.cline/data/settings` for the Cline CLI.
 */
export const cline: AgentDefinition = {
  id: 'cline',
  displayName: 'Cline',
  docs: 'https://docs.cline.bot/mcp/configuring-mcp-servers',
  locations: (context) => [
    {
      scope: 'user',
      path: join(extensionSettings(context), 'cline_mcp_settings.json'),
      format: 'json',
      serversKey: ['mcpServers'],
      label: 'VS Code extension',
    },
    {
      scope: 'user',
      path: join(context.homeDir, '.cline', 'data', 'settings', 'cline_mcp_settings.json'),
      format: 'json',
      serversKey: ['mcpServers'],
      label: 'Cline CLI',
    },
  ],
  markers: (context) => [
    join(vscodeUserDir(context), 'globalStorage', 'saoudrizwan.claude-dev'),
    join(context.homeDir, '.cline'),
  ],
  parseEntry: (raw) => readEntry(raw, dialect),
  // `autoApprove` names tools Cline runs without asking; the default timeout is 60 s.
  harmlessKeys: { autoApprove: always, timeout: atMost(60) },
  shimEntry: (launch) => shimEntry(launch, { type: 'stdio' }),
};
