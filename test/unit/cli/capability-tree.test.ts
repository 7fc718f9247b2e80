import pc from 'picocolors';
import { describe, expect, it } from 'vitest';
import type { CapabilityListing, ServerCapabilities } from '../../../src/domain/ports.js';
import { renderCapabilityTree } from '../../../src/cli/render/capability-tree.js';
import type { ServerView } from '../../../src/cli/render/server-table.js';

const plain = pc.createColors(false);
// The tree reads only these fields of a server.
const web = {
  name: 'web',
  transport: 'stdio',
  enabled: true,
  status: { state: 'running' },
} as unknown as ServerView;
const none: CapabilityListing = { status: 'ok', items: [] };

function tree(tools: CapabilityListing): string {
  const capabilities: ServerCapabilities = {
    tools,
    prompts: none,
    resources: none,
    resource_templates: { status: 'not-supported', items: [] },
  };
  return renderCapabilityTree(web, { ok: true, capabilities }, plain);
}

describe('coffer mcp list --tree', () => {
  it('marks a held-back tool with the command that reviews it, and only that one', () => {
    const text = tree({
      status: 'ok',
      items: [
        { key: 'echo', enabled: true, definition: { name: 'echo' }, held: false },
        { key: 'fetch', enabled: true, definition: { name: 'fetch' }, held: true },
        { key: 'wipe', enabled: false, definition: { name: 'wipe' }, held: true },
      ],
    });
    expect(text.split('\n')).toEqual([
      'web (stdio, enabled, running)',
      '├─ tools (3)',
      '│  ├─ echo',
      '│  ├─ fetch (changed — review: coffer mcp review web)',
      '│  └─ wipe (disabled) (changed — review: coffer mcp review web)',
      '├─ prompts (0)',
      '│  └─ (none)',
      '├─ resources (0)',
      '│  └─ (none)',
      '└─ resource templates',
      '   └─ (not supported)',
      '',
    ]);
  });

  it('marks a held-back tool of a server that could not list, from what was known', () => {
    const text = tree({
      status: 'could-not-load',
      error: { code: 'UPSTREAM_UNAVAILABLE', message: 'it exited' },
      items: [{ key: 'fetch', enabled: true, definition: null, held: true }],
    });
    expect(text).toContain(
      '├─ could not load: it exited\n│  └─ fetch (changed — review: coffer mcp review web)',
    );
  });

  it('counts only what the server lists, and marks a choice kept for a name it does not list', () => {
    const text = tree({
      status: 'ok',
      items: [
        { key: 'echo', enabled: true, definition: { name: 'echo' } },
        { key: 'ech', enabled: false, definition: null },
      ],
    });
    expect(text).toContain(
      '├─ tools (1)\n│  ├─ echo\n│  └─ ech (disabled) (not listed by the server)\n',
    );
  });
});
