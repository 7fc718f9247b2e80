import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { agentContextFrom, checkShims } from '../../../src/agents/index.js';

let home: string;
beforeEach(() => {
  home = mkdtempSync(join(tmpdir(), 'coffer-shim-check-'));
});
afterEach(() => {
  rmSync(home, { recursive: true, force: true });
});

function cursorConfig(entry: unknown): void {
  mkdirSync(join(home, '.cursor'), { recursive: true });
  writeFileSync(
    join(home, '.cursor', 'mcp.json'),
    JSON.stringify({ mcpServers: { coffer: entry } }),
  );
}

function checks() {
  const context = agentContextFrom(
    { HOME: home, PATH: '/usr/bin:/bin' },
    'linux',
    join(home, 'project'),
  );
  return checkShims(context).filter((check) => check.agent.id === 'cursor');
}

describe("an agent's Coffer entry", () => {
  it('is fine when its node and script are there', () => {
    const script = join(home, 'bin', 'coffer.js');
    mkdirSync(join(home, 'bin'));
    writeFileSync(script, '');
    cursorConfig({ command: process.execPath, args: [script, 'shim'] });
    expect(checks()).toEqual([expect.objectContaining({ problem: undefined, unreadable: false })]);
  });

  it('is broken when the checkout it points at was moved', () => {
    cursorConfig({ command: process.execPath, args: [join(home, 'gone', 'coffer.js'), 'shim'] });
    expect(checks()[0]?.problem).toContain(
      `its Coffer script ${join(home, 'gone', 'coffer.js')} is not there`,
    );
  });

  it('is broken when the Node it runs is gone', () => {
    cursorConfig({ command: '/opt/old-node/bin/node', args: ['/x/bin/coffer.js', 'shim'] });
    expect(checks()[0]?.problem).toBe('it runs /opt/old-node/bin/node, which is not there');
  });

  it('is unreadable when the file does not parse, and absent agents are not checked', () => {
    mkdirSync(join(home, '.cursor'), { recursive: true });
    writeFileSync(join(home, '.cursor', 'mcp.json'), '{ "mcpServers": ');
    expect(checks()).toEqual([expect.objectContaining({ unreadable: true })]);
    const context = agentContextFrom({ HOME: join(home, 'empty') }, 'linux', join(home, 'project'));
    expect(checkShims(context)).toEqual([]);
  });
});
