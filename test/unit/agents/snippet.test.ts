import { describe, expect, it } from 'vitest';
import { snippetServers } from '../../../src/agents/documents/snippet.js';
import type { ConfigLocation } from '../../../src/agents/types.js';

const claudeDesktop: ConfigLocation = {
  scope: 'user',
  path: 'the pasted text',
  format: 'json',
  serversKey: ['mcpServers'],
};
const vscode: ConfigLocation = { ...claudeDesktop, format: 'jsonc', serversKey: ['servers'] };
const codex: ConfigLocation = { ...claudeDesktop, format: 'toml', serversKey: ['mcp_servers'] };

const github = { command: 'npx', args: ['-y', '@modelcontextprotocol/server-github'] };
const entry = `"github": ${JSON.stringify(github)}`;

describe('snippetServers: a server README snippet in an agent format', () => {
  it('reads a whole config, and the entries alone in braces', () => {
    expect(snippetServers(claudeDesktop, `{"mcpServers": {${entry}}}`)).toEqual({ github });
    expect(snippetServers(claudeDesktop, `{${entry}}`)).toEqual({ github });
  });

  it('adds the braces a README left out, a trailing comma and blank lines around it too', () => {
    expect(snippetServers(claudeDesktop, `\n  ${entry},\n`)).toEqual({ github });
    expect(snippetServers(claudeDesktop, `"mcpServers": {${entry}}`)).toEqual({ github });
    // VS Code's snippets may carry comments: its format allows them.
    const commented = `"servers": {\n  // the GitHub server\n  ${entry}\n}`;
    expect(snippetServers(vscode, commented)).toEqual({ github });
  });

  it('reads a TOML table of servers as the agent does', () => {
    const table = '[mcp_servers.github]\ncommand = "npx"\nargs = ["-y", "pkg"]\n';
    expect(snippetServers(codex, table)).toEqual({
      github: { command: 'npx', args: ['-y', 'pkg'] },
    });
  });

  it('finds no server in settings that are not servers', () => {
    expect(snippetServers(claudeDesktop, '{"theme": {"dark": true}}')).toBeUndefined();
    expect(snippetServers(claudeDesktop, '')).toBeUndefined();
  });

  it("points a syntax error into the user's own text, not the braced copy", () => {
    let error: unknown;
    try {
      snippetServers(claudeDesktop, '"github": {"command": "npx",, }');
    } catch (caught) {
      error = caught;
    }
    expect(error).toMatchObject({
      code: 'INVALID_INPUT',
      message: expect.stringMatching(/^Cannot read the pasted text:1:\d+: /) as unknown,
    });
    expect((error as { data?: { column?: number } }).data?.column).toBe(29);
  });

  it('refuses text that is not entries, a list or a bare value, as what it is', () => {
    for (const text of ['null', '[1, 2]', '42', 'true']) {
      expect(() => snippetServers(claudeDesktop, text)).toThrow(
        'Cannot read the pasted text:1:1: the file is not a JSON object',
      );
    }
  });
});
