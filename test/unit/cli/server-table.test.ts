import pc from 'picocolors';
import { describe, expect, it } from 'vitest';
import { renderServerTable, type ServerView } from '../../../src/cli/render/server-table.js';

const plain = pc.createColors(false);

// The table reads only these fields of a server.
function server(name: string, tools: number, held_tools?: number): ServerView {
  return {
    name,
    transport: 'stdio',
    enabled: true,
    status: { state: 'running', counts: { tools, prompts: 0, resources: 0 }, last_error: null },
    ...(held_tools === undefined ? {} : { held_tools }),
  } as unknown as ServerView;
}

describe('coffer mcp list (the table)', () => {
  it('counts held-back tools beside the tools and names the review command once per server', () => {
    const text = renderServerTable(
      [server('web', 4, 2), server('fs', 3, 0), server('one', 1, 1)],
      plain,
    );
    const rows = text.split('\n');
    expect(rows.find((row) => row.includes(' web '))).toMatch(/│ +4 \(2 held\) │/);
    expect(rows.find((row) => row.includes(' fs '))).toMatch(/│ +3 │/);
    expect(rows.find((row) => row.includes(' fs '))).not.toContain('held');
    expect(rows.filter((row) => row.includes('— review:'))).toEqual([
      'web: 2 tools held back (changed since you allowed them) — review: coffer mcp review web',
      'one: 1 tool held back (changed since you allowed it) — review: coffer mcp review one',
    ]);
  });

  it('reads a daemon that does not report held tools as holding none', () => {
    const text = renderServerTable([server('web', 4)], plain);
    expect(text).not.toContain('held');
    expect(text).toMatch(/│ +4 │/);
  });
});
