import { describe, expect, it } from 'vitest';
import { runCliWith } from '../../support/cli-in-process.js';

interface Sent {
  readonly method: string;
  readonly path: string;
  readonly body: unknown;
}

const status = { state: 'idle', counts: null, last_error: null };

/**
 * The CLI in-process with a fake daemon API: each request is recorded, and the server
 * answered is the fake's stored one with the request body merged in (as the daemon does).
 */
async function cli(args: string[], stored: Record<string, unknown> = {}) {
  const sent: Sent[] = [];
  const answer = (method: string) => (path: string, body?: unknown) => {
    sent.push({ method, path, body });
    const server = { ...stored, ...(body as object), status };
    return Promise.resolve(
      path === '/servers' && method === 'get' ? { servers: [server] } : { server },
    );
  };
  const api = { get: answer('get'), post: answer('post'), patch: answer('patch') };
  return { ...(await runCliWith(args, api)), sent };
}

const fetchServer = {
  name: 'fetch',
  transport: 'stdio',
  command: 'uvx',
  args: ['mcp-server-fetch'],
  env: {},
  headers: {},
  secret_env: [],
  secret_headers: [],
  enabled: true,
  auto_enable_new_capabilities: true,
};

describe('coffer mcp add --shared', () => {
  it('registers the server shared by all agents', async () => {
    const run = await cli(['mcp', 'add', 'fetch', '--shared', '--', 'uvx', 'mcp-server-fetch']);
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    expect(run.sent).toEqual([
      { method: 'post', path: '/servers', body: expect.objectContaining({ shared: true }) },
      // What would stop it from starting (doctor's findings), said right after adding it.
      { method: 'get', path: '/doctor?agents=no', body: undefined },
    ]);
    expect(run.stdout).toBe(
      'Added server "fetch" (stdio: uvx mcp-server-fetch, shared by all agents)\n',
    );
  });

  it('leaves it unshared without the flag (the default)', async () => {
    const run = await cli(['mcp', 'add', 'fetch', '--', 'uvx', 'mcp-server-fetch']);
    expect(run.sent[0]?.body).toMatchObject({ shared: false });
    expect(run.stdout).not.toContain('shared');
  });
});

describe('coffer mcp share / unshare', () => {
  it('share PATCHes shared: true and says what the server gives up', async () => {
    const run = await cli(['mcp', 'share', 'fetch'], fetchServer);
    expect(run.code).toBe(0);
    expect(run.sent).toEqual([{ method: 'patch', path: '/servers/fetch', body: { shared: true } }]);
    expect(run.stdout).toBe(
      'Server "fetch" is now shared by all agents: it cannot ask agents for sampling, elicitation or roots\n',
    );
    // A name that cannot exist is refused before the daemon is asked.
    const bad = await cli(['mcp', 'share', 'Bad Name']);
    expect(bad.code).toBe(2);
    expect(bad.sent).toEqual([]);
  });

  it('unshare PATCHes shared: false', async () => {
    const run = await cli(['mcp', 'unshare', 'fetch'], { ...fetchServer, shared: true });
    expect(run.sent).toEqual([
      { method: 'patch', path: '/servers/fetch', body: { shared: false } },
    ]);
    expect(run.stdout).toBe('Server "fetch" now gives each agent session its own connection\n');
  });
});

describe('coffer mcp list / show', () => {
  it('marks a shared server in the table and in show', async () => {
    const list = await cli(['mcp', 'list'], { ...fetchServer, shared: true });
    expect(list.stdout).toMatch(/│ fetch +│ stdio \(shared\) +│/);
    const show = await cli(['mcp', 'show', 'fetch'], { ...fetchServer, shared: true });
    expect(show.stdout).toMatch(/^shared: +yes, one connection for all agents$/m);
    const plain = await cli(['mcp', 'show', 'fetch'], { ...fetchServer, shared: false });
    expect(plain.stdout).toMatch(/^shared: +no$/m);
  });
});
