import { join } from 'node:path';
import { readEntry, shimEntry } from '../entry-reading.js';
import type { AgentDefinition } from '../types.js';

/**
 * Claude Code: `~/.claude.json` holds user servers (top-level `mcpServers`) and private
 * per-project ones (`projects["<dir>"].mcpServers`, the "local" scope); `.mcp.json` at
 * the project root holds shared ones. Remote entries carry `type: "http" | "sse"`.
 */
export const claudeCode: AgentDefinition = {
  id: 'claude-code',
  displayName: 'Claude Code',
  docs: 'https://code.claude.com/docs/en/mcp',
  locations: (context) => {
    const userFile = join(context.homeDir, '.claude.json');
    return [
      { scope: 'user', path: userFile, format: 'json', serversKey: ['mcpServers'] },
      {
        scope: 'project',
        path: join(context.cwd, '.mcp.json'),
        format: 'json',
        serversKey: ['mcpServers'],
      },
      {
        scope: 'local',
        path: userFile,
        format: 'json',
        serversKey: ['projects', context.cwd, 'mcpServers'],
      },
    ];
  },
  markers: (context) => [join(context.homeDir, '.claude')],
  parseEntry: (raw) => readEntry(raw),
  defaultVariables: true,
  shimEntry: (launch) => shimEntry(launch, { type: 'stdio' }),
};
