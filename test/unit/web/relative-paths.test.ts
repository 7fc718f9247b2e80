import { describe, expect, it } from 'vitest';
import { isRelativePath } from '../../../web/src/pages/relative-paths.js';

describe('which words of a command line are relative paths', () => {
  it('finds files named relative to where the command runs', () => {
    for (const word of ['build/index.js', './server.py', 'server.py', '..\\srv\\main.js'])
      expect(isRelativePath(word), word).toBe(true);
  });

  it('leaves absolute and home paths, options, URLs and package names alone', () => {
    for (const word of [
      '/usr/bin/node',
      '~/notes',
      'C:\\tools\\server.js',
      '-y',
      '--port=3000',
      'https://example.com/mcp',
      '@modelcontextprotocol/server-filesystem',
      'mcp-server-fetch',
      'node',
      '',
    ])
      expect(isRelativePath(word), word).toBe(false);
  });
});
