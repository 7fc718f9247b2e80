import { describe, expect, it } from 'vitest';
import { readPasted } from '../../../web/src/pages/pasted-servers.js';

const github = { command: 'npx', args: ['-y', '@modelcontextprotocol/server-github'] };

describe('readPasted', () => {
  it('sends the mcpServers block as Claude Desktop reads it, and VS Code\'s "servers" as VS Code does', () => {
    const block = JSON.stringify({ mcpServers: { github } });
    expect(readPasted(`  ${block}\n`)).toEqual({ agent: 'claude-desktop', text: block });
    const vscode =
      '{\n  // from the README\n  "servers": { "github": { "type": "stdio", "command": "npx" } }\n}';
    expect(readPasted(vscode)).toEqual({ agent: 'vscode', text: vscode });
  });

  it('sends a block or bare entries without their braces as pasted: the daemon adds them', () => {
    const inner = `"mcpServers": ${JSON.stringify({ github })}`;
    expect(readPasted(`\n${inner}\n`)).toEqual({ agent: 'claude-desktop', text: inner });
    const entries = `"github": ${JSON.stringify(github)},`;
    expect(readPasted(entries)).toEqual({ agent: 'claude-desktop', text: entries });
    expect(readPasted(JSON.stringify({ remote: { url: 'https://x.test/mcp' } }))).toMatchObject({
      agent: 'claude-desktop',
    });
  });

  it('says what is wrong with text it cannot send', () => {
    expect(readPasted('   ')).toEqual({ error: "Paste the JSON that the server's README gives." });
    expect(readPasted('npx -y @modelcontextprotocol/server-github')).toMatchObject({
      error: expect.stringContaining('This is not JSON'),
    });
    expect(readPasted('{"name": "github"}')).toMatchObject({
      error: expect.stringContaining('No server in it'),
    });
  });
});
