import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { chooseLocation, findAgent, type ConfigLocation } from '../../../src/agents/index.js';
import { fakeHome, type FakeHome } from './fake-home.js';

/**
 * Cursor's user file with a plain server and one holding a token: the file the tests of
 * `install --replace`, restore and backup pruning change and expect back.
 */
export const launch = { command: '/usr/bin/node', args: ['/srv/coffer/bin/coffer.js', 'shim'] };
export const cursor = findAgent('cursor');
export const keep = { command: 'npx', args: ['-y', 'keep-mcp'] };
export const tok = {
  command: 'npx',
  args: ['-y', 'notion-mcp'],
  env: { NOTION_TOKEN: 'ntn_abc123' },
};

/** The file's text as Cursor writes it, for these servers. */
export const cursorFile = (servers: Record<string, unknown>): string =>
  `${JSON.stringify({ mcpServers: servers }, null, 2)}\n`;

/** A fake Linux home whose Cursor user file holds `servers` (`keep` and `tok` unless told). */
export function cursorHome(servers: Record<string, unknown> = { keep, tok }): {
  home: FakeHome;
  location: ConfigLocation;
} {
  const home = fakeHome('linux');
  const location = chooseLocation(cursor, home.context, 'user');
  mkdirSync(dirname(location.path), { recursive: true });
  writeFileSync(location.path, cursorFile(servers));
  return { home, location };
}
