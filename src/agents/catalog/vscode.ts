import { join } from 'node:path';
import { readEntry, shimEntry, type EntryDialect } from '../entry-reading.js';
import { vscodeUserDir } from '../platform-paths.js';
import type { AgentDefinition } from '../types.js';

const dialect: EntryDialect = {
  urlKeys: [{ key: 'url' }],
  headersKey: 'headers',
  hints: {
    envFile: 'Coffer does not read env files; add the variables with `coffer mcp add --env`',
  },
};

/**
 * VS Code: `mcp.json` in the user profile and `.vscode/mcp.json` in a workspace, both
 * JSONC with servers under `servers` and a required `type` (stdio, http, sse).
 */
export const vscode: AgentDefinition = {
  id: 'vscode',
  displayName: 'VS Code',
  docs: 'https://code.visualstudio.com/docs/copilot/reference/mcp-configuration',
  locations: (context) => [
    {
      scope: 'user',
      path: join(vscodeUserDir(context), 'mcp.json'),
      format: 'jsonc',
      serversKey: ['servers'],
    },
    {
      scope: 'project',
      path: join(context.cwd, '.vscode', 'mcp.json'),
      format: 'jsonc',
      serversKey: ['servers'],
    },
  ],
  markers: (context) => [vscodeUserDir(context)],
  parseEntry: (raw) => readEntry(raw, dialect),
  pathVariables: true,
  shimEntry: (launch) => shimEntry(launch, { type: 'stdio' }),
};
