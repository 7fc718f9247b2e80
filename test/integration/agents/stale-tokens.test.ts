import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { chooseLocation, findAgent, staleTokenEntries } from '../../../src/agents/index.js';
import { fakeHome, type FakeHome } from './fake-home.js';

/** Which agent entries send this daemon a token that is not its current one. */

const daemon = { port: 8004, token: 'the-current-token' };
const url = `http://127.0.0.1:${daemon.port}/mcp`;
const bearer = (token: string) => ({ Authorization: `Bearer ${token}` });

describe('staleTokenEntries', () => {
  let home: FakeHome;
  beforeEach(() => {
    home = fakeHome('linux');
  });
  afterEach(() => home.cleanup());

  const write = (path: string, value: unknown) => {
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, JSON.stringify(value));
  };

  it('names enabled entries to this daemon with a written-out token not its own', () => {
    write(join(home.context.homeDir, '.cursor', 'mcp.json'), {
      mcpServers: {
        old: { url, headers: bearer('from-yesterday') },
        lowercase: { url, headers: { authorization: 'bearer from-yesterday' } },
        current: { url, headers: bearer(daemon.token) },
        expanded: { url, headers: bearer('${env:COFFER_TOKEN}') },
        none: { url },
        elsewhere: { url: 'http://127.0.0.1:9/mcp', headers: bearer('from-yesterday') },
        local: { command: 'node', args: ['server.js'] },
      },
    });
    const names = staleTokenEntries(home.context, daemon).map((entry) => entry.name);
    expect(names).toEqual(['old', 'lowercase']);
  });

  it("reads each of an agent's scopes, and leaves disabled entries alone", () => {
    const claude = findAgent('claude-code');
    const entry = { type: 'http', url, headers: bearer('from-yesterday') };
    write(join(home.context.homeDir, '.claude.json'), {
      mcpServers: { user: entry },
      projects: { [home.context.cwd]: { mcpServers: { coffer: entry } } },
    });
    write(join(home.context.homeDir, '.codeium', 'windsurf', 'mcp_config.json'), {
      mcpServers: { off: { serverUrl: url, headers: bearer('x'), disabled: true } },
    });
    const found = staleTokenEntries(home.context, daemon);
    expect(found.map(({ agent, location, name }) => [agent.id, location.scope, name])).toEqual([
      ['claude-code', 'user', 'user'],
      ['claude-code', 'local', 'coffer'],
    ]);
    expect(found[1]?.location).toEqual(chooseLocation(claude, home.context, 'local'));
  });

  it('names an entry once when the project is the home folder (one file, two scopes)', () => {
    write(join(home.context.homeDir, '.cursor', 'mcp.json'), {
      mcpServers: { old: { url, headers: bearer('from-yesterday') } },
    });
    const fromHome = { ...home.context, cwd: home.context.homeDir };
    const found = staleTokenEntries(fromHome, daemon);
    expect(found.map(({ location, name }) => [location.scope, name])).toEqual([['user', 'old']]);
  });
});
