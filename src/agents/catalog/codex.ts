import { join } from 'node:path';
import { readEntry, shimEntry, type EntryDialect } from '../entry-reading.js';
import type { AgentContext, AgentDefinition } from '../types.js';

const SECRET_HINT =
  'Codex reads it from the environment; store the value with `coffer secrets set`';

/** Codex spells headers `http_headers` and its remote servers are Streamable HTTP. */
const dialect: EntryDialect = {
  urlKeys: [{ key: 'url', transport: 'http' }],
  headersKey: 'http_headers',
  hints: {
    bearer_token_env_var: SECRET_HINT,
    env_http_headers: SECRET_HINT,
    env_vars: 'Coffer passes only the variables listed in the server definition',
  },
};

function codexHome(context: AgentContext): string {
  const override = context.env['CODEX_HOME'];
  return override !== undefined && override !== '' ? override : join(context.homeDir, '.codex');
}

/**
 * Codex CLI (and its IDE extension, which shares the file): TOML tables
 * `[mcp_servers.<name>]` in `$CODEX_HOME/config.toml` (default `~/.codex`), and in
 * `.codex/config.toml` of a trusted project. `enabled = false` switches one off.
 */
export const codex: AgentDefinition = {
  id: 'codex',
  displayName: 'Codex CLI',
  docs: 'https://developers.openai.com/codex/mcp',
  locations: (context) => [
    {
      scope: 'user',
      path: join(codexHome(context), 'config.toml'),
      format: 'toml',
      serversKey: ['mcp_servers'],
    },
    {
      scope: 'project',
      path: join(context.cwd, '.codex', 'config.toml'),
      format: 'toml',
      serversKey: ['mcp_servers'],
    },
  ],
  markers: (context) => [codexHome(context)],
  parseEntry: (raw) => readEntry(raw, dialect),
  shimEntry: (launch) => shimEntry(launch),
};
