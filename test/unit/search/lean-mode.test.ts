import { describe, expect, it } from 'vitest';
import { parseToolsMode } from '../../../src/domain/tools-mode.js';
import { readSettings } from '../../../src/config/settings.js';
import { CofferError } from '../../../src/domain/errors.js';
import { capabilityKinds } from '../../../src/gateway/capability-kinds.js';
import { toolSurface } from '../../../src/gateway/lean-mode.js';
import type { SessionCatalog } from '../../../src/gateway/session-catalog.js';

const upstream = [{ name: 'fx__echo', inputSchema: { type: 'object' } }];
const prompts = [{ name: 'fx__greeting' }];

/** Counts lists, to show lean mode never asks the upstreams. */
function catalog() {
  const asked: string[] = [];
  const fake = {
    list: (kind: { type: string }) => {
      asked.push(kind.type);
      return Promise.resolve(kind.type === 'tool' ? upstream : prompts);
    },
    resolve: () => Promise.resolve(undefined),
  } as unknown as SessionCatalog;
  return { fake, asked };
}

const names = (items: Record<string, unknown>[]) => items.map((item) => item['name']);

describe('tool surface by mode', () => {
  it('full: every upstream tool plus coffer__search_tools', async () => {
    const { fake } = catalog();
    const tools = await toolSurface(fake, 'full').list(capabilityKinds.tool);
    expect(names(tools)).toEqual(['coffer__search_tools', 'fx__echo']);
  });

  it('lean: exactly the two built-in tools, without listing any upstream', async () => {
    const { fake, asked } = catalog();
    const surface = toolSurface(fake, 'lean');
    const tools = await surface.list(capabilityKinds.tool);
    expect(names(tools)).toEqual(['coffer__search_tools', 'coffer__call_tool']);
    expect(asked).toEqual([]);
    expect(JSON.stringify(tools)).toContain('coffer__call_tool');
    // Prompts and resources are listed as in full mode.
    expect(names(await surface.list(capabilityKinds.prompt))).toEqual(['fx__greeting']);
  });

  it('describes the next step for each mode', async () => {
    const { fake } = catalog();
    const [lean] = await toolSurface(fake, 'lean').list(capabilityKinds.tool);
    const [full] = await toolSurface(fake, 'full').list(capabilityKinds.tool);
    expect(lean?.['description']).toContain('coffer__call_tool');
    expect(full?.['description']).toContain('directly');
  });
});

describe('tools mode setting', () => {
  it('parses full and lean, and names the source of a bad value', () => {
    expect(parseToolsMode('lean', 'x')).toBe('lean');
    expect(() => parseToolsMode('tiny', 'COFFER_TOOLS_MODE')).toThrow(/COFFER_TOOLS_MODE.*"tiny"/);
  });

  it('defaults to full and reads COFFER_TOOLS_MODE', () => {
    expect(readSettings({}).toolsMode).toBe('full');
    expect(readSettings({ COFFER_TOOLS_MODE: 'lean' }).toolsMode).toBe('lean');
    expect(() => readSettings({ COFFER_TOOLS_MODE: 'LEAN!' })).toThrow(CofferError);
  });
});
