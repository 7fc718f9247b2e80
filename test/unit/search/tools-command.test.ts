import { describe, expect, it } from 'vitest';
import { runCliWith } from '../../support/cli-in-process.js';

const answer = {
  query: 'open an issue',
  tools: [
    {
      name: 'github__create_issue',
      server: 'github',
      tool: 'create_issue',
      description: 'Create a new issue in a GitHub repository',
      inputSchema: {
        type: 'object',
        properties: { owner: {}, repo: {}, title: {}, body: {} },
        required: ['owner', 'repo', 'title'],
      },
      score: 12.5,
    },
  ],
  unavailable: [{ server: 'slack', code: 'UPSTREAM_UNAVAILABLE', message: 'it crashed' }],
};

/** The CLI in-process with a fake daemon API that records the paths it was asked. */
async function cli(args: string[], body: unknown = answer) {
  const paths: string[] = [];
  const get = (path: string) => {
    paths.push(path);
    return Promise.resolve(body);
  };
  return { ...(await runCliWith(args, { get })), paths };
}

describe('coffer tools search', () => {
  it('asks GET /tools/search and prints name, server, description and parameters', async () => {
    const run = await cli(['tools', 'search', 'open', 'an', 'issue', '--limit', '3']);
    expect(run.code).toBe(0);
    expect(run.paths).toEqual(['/tools/search?q=open+an+issue&limit=3']);
    expect(run.stdout).toBe(
      '1. github__create_issue (github)\n' +
        '   Create a new issue in a GitHub repository\n' +
        '   params: owner*, repo*, title*, body\n',
    );
    expect(run.stderr).toBe('coffer: could not search slack: it crashed\n');
  });

  it('prints JSON with --json and passes --server on', async () => {
    const run = await cli(['tools', 'search', 'issue', '--server', 'github', '--json']);
    expect(run.paths).toEqual(['/tools/search?q=issue&limit=8&server=github']);
    expect(JSON.parse(run.stdout)).toEqual(answer);
  });

  it('says so when nothing matches', async () => {
    const run = await cli(['tools', 'search', 'xyzzy'], {
      query: 'xyzzy',
      tools: [],
      unavailable: [],
    });
    expect(run.stdout).toBe('No enabled tool matches "xyzzy".\n');
  });

  it('checks its input before reaching the daemon', async () => {
    for (const args of [
      ['tools', 'search', 'x', '--limit', '0'],
      ['tools', 'search', 'x', '--limit', '51'],
      ['tools', 'search', 'x', '--server', 'Bad Name'],
      ['tools', 'search', ' '],
    ]) {
      const run = await cli(args);
      expect(run.code, args.join(' ')).toBe(2);
      expect(run.paths).toEqual([]);
    }
  });
});
