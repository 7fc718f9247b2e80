import { describe, expect, it } from 'vitest';
import { findAgent } from '../../../src/agents/index.js';
import { guessRemoteTransport, readEntry } from '../../../src/agents/entry-reading.js';

describe('readEntry (the shared entry shape)', () => {
  it('reads a local server, with numbers in env turned to text', () => {
    expect(
      readEntry({ command: 'uvx', args: ['srv', 1], env: { PORT: 3000 }, cwd: '/srv' }),
    ).toEqual({
      transport: 'stdio',
      command: 'uvx',
      args: ['srv', '1'],
      env: { PORT: '3000' },
      cwd: '/srv',
      headers: {},
      enabled: true,
      notes: [],
    });
  });

  it('reads remote servers and their transport', () => {
    expect(readEntry({ type: 'sse', url: 'https://x.test/mcp' })).toMatchObject({
      transport: 'sse',
    });
    expect(readEntry({ type: 'http', url: 'https://x.test/sse' })).toMatchObject({
      transport: 'http',
    });
    expect(readEntry({ url: 'https://x.test/sse' })).toMatchObject({ transport: 'sse' });
    expect(readEntry({ url: 'https://x.test/mcp', headers: { A: 'b' } })).toMatchObject({
      transport: 'http',
      url: 'https://x.test/mcp',
      headers: { A: 'b' },
    });
  });

  it('skips what it cannot use, saying why', () => {
    expect(readEntry('npx x')).toEqual({ skip: 'the entry is not an object', malformed: true });
    expect(readEntry({ args: [] })).toEqual({
      skip: 'the entry has neither a command nor a URL',
      malformed: true,
    });
    expect(readEntry({ type: 'websocket', url: 'ws://x' })).toEqual({
      skip: 'transport "websocket" is not supported',
    });
  });

  it('reads disabled entries as disabled and lists what it drops', () => {
    const entry = readEntry({ command: 'x', disabled: true, autoApprove: ['a'], timeout: 5 });
    expect(entry).toMatchObject({
      enabled: false,
      notes: ['not carried over: autoApprove, timeout'],
    });
    expect(readEntry({ command: 'x', enabled: false })).toMatchObject({ enabled: false });
  });

  it('guesses SSE only from an /sse path', () => {
    expect(guessRemoteTransport('https://a.test/v1/sse')).toBe('sse');
    expect(guessRemoteTransport('https://a.test/mcp')).toBe('http');
    expect(guessRemoteTransport('not a url')).toBe('http');
  });
});

describe('agent dialects', () => {
  it('Gemini: httpUrl is Streamable HTTP, url is SSE', () => {
    const gemini = findAgent('gemini');
    expect(gemini.parseEntry({ httpUrl: 'https://a.test/mcp' })).toMatchObject({
      transport: 'http',
    });
    expect(gemini.parseEntry({ url: 'https://a.test/mcp' })).toMatchObject({ transport: 'sse' });
  });

  it('Windsurf: serverUrl', () => {
    expect(findAgent('windsurf').parseEntry({ serverUrl: 'https://a.test/mcp' })).toMatchObject({
      transport: 'http',
      url: 'https://a.test/mcp',
    });
  });

  it('Cline: a URL without type is SSE; streamableHttp is HTTP', () => {
    const cline = findAgent('cline');
    expect(cline.parseEntry({ url: 'https://a.test/mcp' })).toMatchObject({ transport: 'sse' });
    expect(cline.parseEntry({ type: 'streamableHttp', url: 'https://a.test/mcp' })).toMatchObject({
      transport: 'http',
    });
  });

  it('Codex: http_headers, and advice for env-backed tokens', () => {
    const entry = findAgent('codex').parseEntry({
      url: 'https://a.test/mcp',
      http_headers: { 'X-Team': 'blue' },
      bearer_token_env_var: 'TOKEN',
    });
    expect(entry).toMatchObject({ transport: 'http', headers: { 'X-Team': 'blue' } });
    expect('notes' in entry && entry.notes[0]).toMatch(/bearer_token_env_var.*coffer secrets set/);
  });

  it('Zed: the nested command form, and extension servers skipped', () => {
    const zed = findAgent('zed');
    expect(
      zed.parseEntry({ source: 'custom', command: { path: 'npx', args: ['a'], env: { K: 'v' } } }),
    ).toMatchObject({
      transport: 'stdio',
      command: 'npx',
      args: ['a'],
      env: { K: 'v' },
      notes: [],
    });
    expect(zed.parseEntry({ command: 'npx', args: ['b'] })).toMatchObject({ command: 'npx' });
    expect(zed.parseEntry({ source: 'extension', settings: {} })).toEqual({
      skip: 'it comes from a Zed extension; add it to Coffer by hand',
    });
  });

  it('VS Code: envFile is reported, not silently dropped', () => {
    const entry = findAgent('vscode').parseEntry({ type: 'stdio', command: 'x', envFile: '.env' });
    expect('notes' in entry && entry.notes[0]).toMatch(/envFile/);
  });

  it('writes the shim entry each agent expects', () => {
    const launch = { command: '/n', args: ['/c.js', 'shim'], env: { COFFER_HOME: '/h' } };
    expect(findAgent('vscode').shimEntry(launch)).toEqual({ type: 'stdio', ...launch });
    expect(findAgent('claude-code').shimEntry(launch)).toEqual({ type: 'stdio', ...launch });
    expect(findAgent('cursor').shimEntry({ command: '/n', args: ['shim'] })).toEqual({
      command: '/n',
      args: ['shim'],
    });
  });
});
