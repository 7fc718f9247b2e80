import pc from 'picocolors';
import { describe, expect, it } from 'vitest';
import {
  renderServerDetails,
  renderServerTable,
  type ServerView,
} from '../../../src/cli/render/server-table.js';

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

  it('says under the table why a failing server fails and what to do, and nothing of others', () => {
    const failing = (name: string, state: string, enabled = true): ServerView =>
      ({
        ...server(name, 0),
        enabled,
        status: {
          state,
          counts: null,
          last_error: {
            code: 'UPSTREAM_UNAVAILABLE',
            message: `${name} could not start`,
            ...(name === 'ghost' ? { hint: 'use an absolute path' } : {}),
            at: '2026-01-01T00:00:00.000Z',
          },
        },
      }) as unknown as ServerView;
    const text = renderServerTable(
      [
        failing('ghost', 'error'),
        failing('loop', 'crash-loop'),
        failing('off', 'error', false),
        failing('again', 'running'),
        server('fine', 2),
      ],
      plain,
    );
    expect(text.split('\n').filter((line) => !/[│┌├└]/.test(line) && line !== '')).toEqual([
      'ghost: ghost could not start — fix: use an absolute path',
      'loop: loop could not start',
    ]);
  });

  it('reads a daemon that does not report held tools as holding none', () => {
    const text = renderServerTable([server('web', 4)], plain);
    expect(text).not.toContain('held');
    expect(text).toMatch(/│ +4 │/);
  });
});

describe('coffer mcp show (the details)', () => {
  it("names the last error's fix on a line of its own", () => {
    const failing = {
      ...server('web', 0),
      command: 'mcp-web',
      args: [],
      env: {},
      headers: {},
      secret_env: [],
      secret_headers: [],
      status: {
        state: 'error',
        counts: null,
        last_error: {
          code: 'UPSTREAM_UNAVAILABLE',
          message: 'command not found: mcp-web',
          hint: 'use an absolute path',
          at: '2026-01-01T00:00:00.000Z',
        },
      },
    } as unknown as ServerView;
    const lines = renderServerDetails(failing, plain).split('\n');
    const error = lines.findIndex((line) => line.startsWith('last error:'));
    expect(lines[error]).toContain('UPSTREAM_UNAVAILABLE: command not found: mcp-web');
    expect(lines[error + 1]).toMatch(/^fix: +use an absolute path$/);
  });

  it("says whether a remote server's sign-in is held, and nothing of a local one's", () => {
    const remote = (signed_in?: boolean) =>
      ({
        ...server('linear', 0),
        transport: 'http',
        url: 'https://mcp.linear.example/mcp',
        args: [],
        env: {},
        headers: {},
        secret_env: [],
        secret_headers: [],
        status: { state: 'idle', counts: null, last_error: null },
        ...(signed_in === undefined ? {} : { signed_in }),
      }) as unknown as ServerView;
    const row = (view: ServerView) =>
      renderServerDetails(view, plain)
        .split('\n')
        .find((line) => line.startsWith('sign-in:'));
    expect(row(remote(true))).toMatch(/^sign-in: +signed in \(OAuth tokens for this URL/);
    expect(row(remote(false))).toMatch(
      /^sign-in: +none \(if it uses OAuth: coffer mcp login linear\)$/,
    );
    expect(row(remote())).toBeUndefined();
  });

  it('says which secrets have a value, and how to set one that has none', () => {
    const view = {
      ...server('gh', 0),
      command: 'npx',
      args: [],
      env: {},
      headers: {},
      secret_env: ['GITHUB_TOKEN', 'API_KEY'],
      secret_headers: [],
    } as unknown as ServerView;
    const lines = (stored?: ReadonlySet<string>) =>
      renderServerDetails(view, plain, stored)
        .split('\n')
        .filter((line) => line.startsWith('secret env:'));
    expect(lines(new Set(['env/GITHUB_TOKEN']))).toEqual([
      expect.stringMatching(/^secret env: +GITHUB_TOKEN \(stored\)$/),
      expect.stringMatching(
        /^secret env: +API_KEY \(not set: coffer secrets set gh --env API_KEY\)$/,
      ),
    ]);
    // The daemon could not tell: the names alone, no claim about where they are.
    expect(lines(undefined)).toEqual([
      expect.stringMatching(/^secret env: +GITHUB_TOKEN$/),
      expect.stringMatching(/^secret env: +API_KEY$/),
    ]);
  });
});
