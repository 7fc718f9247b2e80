import { describe, expect, it } from 'vitest';
import { documentFromText } from '../../../src/agents/documents/load-document.js';
import { JsonSyntaxError } from '../../../src/agents/documents/json-document.js';
import { TomlSyntaxError } from '../../../src/agents/documents/toml-document.js';

const entry = { command: '/n', args: ['shim'] };
const key = ['mcpServers'];

describe('JSON and JSONC documents', () => {
  it('adds an entry first in its map and keeps comments and the other entries as written', () => {
    const text = '{\n  // mine\n  "mcpServers": {\n    "a": { "command": "x" } // keep\n  }\n}\n';
    const next = documentFromText(text, 'jsonc').withServer(key, 'coffer', entry);
    expect(next.text).toContain('// mine');
    expect(next.text).toContain('"a": { "command": "x" } // keep');
    expect(Object.keys(next.servers(key) ?? {})).toEqual(['coffer', 'a']);
  });

  it('follows the file: tabs, CRLF, and minified files stay minified', () => {
    const tabs = documentFromText('{\r\n\t"mcpServers": {}\r\n}\r\n', 'json').withServer(
      key,
      'c',
      entry,
    );
    expect(tabs.text).toContain('\r\n\t\t"c": {');
    expect(tabs.text.replace(/\r\n/g, '')).not.toContain('\n');
    const minified = documentFromText('{"mcpServers":{"a":{"command":"x"}}}', 'json');
    expect(minified.withServer(key, 'c', entry).text).not.toContain('\n');
  });

  it('creates the map and the file content when there is none', () => {
    const created = documentFromText('', 'json').withServer(
      ['projects', '/p', 'mcpServers'],
      'c',
      entry,
    );
    expect(JSON.parse(created.text)).toEqual({ projects: { '/p': { mcpServers: { c: entry } } } });
    expect(created.text.endsWith('}\n')).toBe(true);
  });

  it('adds the object after the comments of a file that holds only comments', () => {
    const vscode = ['servers'];
    for (const text of ['// my MCP servers\n', '/* none yet */', '// a\r\n// b\r\n']) {
      const next = documentFromText(text, 'jsonc').withServer(vscode, 'coffer', entry);
      expect(next.text.startsWith(text.trimEnd())).toBe(true);
      expect(next.servers(vscode)).toEqual({ coffer: entry });
      const crlf = text.includes('\r\n');
      const eol = crlf ? '\r\n' : '\n';
      expect(next.text.endsWith(`}${eol}`)).toBe(true);
      expect(next.text).toContain(`${eol}{${eol}  "servers": {${eol}    "coffer": {`);
      if (!crlf) expect(next.text).not.toContain('\r');
    }
  });

  it('removes entries, leaving the entries before them as written', () => {
    const text =
      '{\n  "mcpServers": {\n    "a": { "command": "x" },\n    "b": { "command": "y" }\n  }\n}\n';
    const document = documentFromText(text, 'json');
    expect(document.withoutServer(key, 'b').text).toBe(
      '{\n  "mcpServers": {\n    "a": { "command": "x" }\n  }\n}\n',
    );
    // Removing the first entry lets jsonc-parser re-indent the line that moves up (an
    // inline entry is spread over lines); it never glues it to the opening brace.
    const first = document.withoutServer(key, 'a');
    expect(first.text).toMatch(/"mcpServers": \{\n {4}"b": \{/);
    expect(first.servers(key)).toEqual({ b: { command: 'y' } });
  });

  it('removes every occurrence of a name given twice, as the agent reads the last', () => {
    const text =
      '{\n  "mcpServers": {\n    "a": { "command": "old" },\n    "b": { "command": "y" },\n    "a": { "command": "new" }\n  }\n}\n';
    for (const flavour of ['json', 'jsonc'] as const) {
      const document = documentFromText(text, flavour);
      expect(document.servers(key)).toEqual({ a: { command: 'new' }, b: { command: 'y' } });
      const removed = document.withoutServer(key, 'a');
      expect(removed.text).not.toContain('"a"');
      expect(removed.servers(key)).toEqual({ b: { command: 'y' } });
      // Setting it leaves one entry, the one the agent now reads.
      const set = document.withServer(key, 'a', entry);
      expect(set.text.match(/"a"/g)).toHaveLength(1);
      expect(set.servers(key)).toEqual({ a: entry, b: { command: 'y' } });
    }
  });

  it('reads past a byte order mark and keeps it in what it writes', () => {
    const text = '\uFEFF{\n  "mcpServers": {\n    "a": { "command": "x" }\n  }\n}\n';
    for (const flavour of ['json', 'jsonc'] as const) {
      const document = documentFromText(text, flavour);
      expect(document.text).toBe(text);
      expect(document.servers(key)).toEqual({ a: { command: 'x' } });
      const added = document.withServer(key, 'c', entry);
      expect(added.text.startsWith('\uFEFF{')).toBe(true);
      const plain = documentFromText(text.slice(1), flavour).withServer(key, 'c', entry);
      expect(added.text).toBe(`\uFEFF${plain.text}`);
      expect(added.withoutServer(key, 'c').text).toBe(
        `\uFEFF${plain.withoutServer(key, 'c').text}`,
      );
    }
  });

  it('finds the line of a syntax error, and comments are errors in strict JSON only', () => {
    const problem = (text: string, flavour: 'json' | 'jsonc') => {
      try {
        documentFromText(text, flavour);
      } catch (error) {
        return (error as JsonSyntaxError).problem;
      }
      return undefined;
    };
    expect(problem('{\n  "a": 1,\n  "b": \n}', 'json')).toMatchObject({ line: 4, column: 1 });
    expect(problem('{\n  // c\n  "a": 1\n}', 'json')).toMatchObject({
      line: 2,
      message: 'comments are not allowed in this file',
    });
    expect(problem('{\n  // c\n  "a": 1,\n}', 'jsonc')).toBeUndefined();
    expect(problem('[1, 2]', 'jsonc')).toMatchObject({ message: 'the file is not a JSON object' });
  });

  it('refuses a server map that is not an object', () => {
    const document = documentFromText('{\n  "mcpServers": []\n}\n', 'json');
    expect(() => document.servers(key)).toThrow(JsonSyntaxError);
  });
});

describe('TOML documents', () => {
  const text = '# top\nmodel = "o3" # inline\n\n[mcp_servers.a]\ncommand = "x"\n\n[other]\nk = 1\n';

  it('adds a table next to its siblings and keeps comments', () => {
    const next = documentFromText(text, 'toml').withServer(['mcp_servers'], 'coffer', entry);
    expect(next.text).toContain('# top\nmodel = "o3" # inline\n');
    expect(next.text).toMatch(/\[mcp_servers\.a\][\s\S]*\[mcp_servers\.coffer\][\s\S]*\[other\]/);
    expect(next.servers(['mcp_servers'])).toEqual({ a: { command: 'x' }, coffer: entry });
  });

  it('removes a table with its sub-tables, and quotes unusual names', () => {
    const nested =
      '[mcp_servers."my.server"]\ncommand = "x"\n\n[mcp_servers."my.server".env]\nK = "v"\n';
    const next = documentFromText(nested, 'toml').withoutServer(['mcp_servers'], 'my.server');
    expect(next.text).not.toContain('my.server');
  });

  it('reports the line of a syntax error', () => {
    try {
      documentFromText('a = 1\nb = [1,\nc = 2\n', 'toml');
      expect.unreachable();
    } catch (error) {
      expect(error).toBeInstanceOf(TomlSyntaxError);
      expect((error as TomlSyntaxError).problem.line).toBe(3);
    }
  });
});
