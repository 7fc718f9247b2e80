import { describe, expect, it } from 'vitest';
import type { CapabilityPreference } from '../../../src/domain/capability.js';
import { exportConfig, parseConfigFile } from '../../../src/domain/config-file.js';
import { planConfigImport } from '../../../src/domain/config-plan.js';
import { CofferError } from '../../../src/domain/errors.js';
import type { ServerRecord } from '../../../src/domain/server-definition.js';
import type { ServerPolicies, ToolPolicy } from '../../../src/domain/tool-policy.js';

function record(name: string, fields: Partial<ServerRecord> = {}): ServerRecord {
  return {
    name,
    transport: 'stdio',
    command: 'npx',
    args: ['-y', `@x/${name}`],
    env: { B: '2', A: '1' },
    headers: {},
    secret_env: [],
    secret_headers: [],
    enabled: true,
    auto_enable_new_capabilities: true,
    shared: false,
    id: 7,
    created_at: 't',
    updated_at: 't',
    ...fields,
  };
}

function pref(server: string, key: string, enabled: boolean): CapabilityPreference {
  return { server, type: 'tool', key, enabled, first_seen_at: 't', last_seen_at: 't' };
}

function policies(destructive: ToolPolicy, tools: Record<string, ToolPolicy> = {}): ServerPolicies {
  return { destructive, tools: new Map(Object.entries(tools)) };
}

function problemOf(value: unknown): { message: string; path: unknown } {
  try {
    parseConfigFile(value);
  } catch (error) {
    if (error instanceof CofferError && error.code === 'INVALID_INPUT')
      return { message: error.message, path: error.data?.['path'] };
    throw error;
  }
  throw new Error('expected a problem');
}

describe('the config file', () => {
  it('exports definitions without store fields, and only switches that differ from the default', () => {
    const file = exportConfig(
      [record('files', { secret_env: ['TOKEN'] })],
      new Map([['files', [pref('files', 'write_file', false), pref('files', 'read_file', true)]]]),
      new Map([['files', policies('deny', { rm: 'ask', cat: 'allow' })]]),
    );
    expect(file).toEqual({
      coffer_config: 1,
      servers: {
        files: {
          transport: 'stdio',
          command: 'npx',
          args: ['-y', '@x/files'],
          env: { B: '2', A: '1' },
          headers: {},
          secret_env: ['TOKEN'],
          secret_headers: [],
          enabled: true,
          auto_enable_new_capabilities: true,
          shared: false,
          capabilities: { tool: { write_file: false } },
          policies: { destructive: 'deny', tools: { cat: 'allow', rm: 'ask' } },
        },
      },
    });
  });

  it('always writes the destructive default, and no tools when none has its own policy', () => {
    const file = exportConfig([record('files')], new Map(), new Map([['files', policies('ask')]]));
    expect(file.servers['files']?.policies).toEqual({ destructive: 'ask' });
  });

  it('reads policies, and a file without them (written before they existed) sets none', () => {
    const parsed = parseConfigFile({
      coffer_config: 1,
      servers: {
        old: { transport: 'stdio', command: 'x' },
        new: { transport: 'stdio', command: 'y', policies: { tools: { rm: 'deny' } } },
      },
    });
    expect(parsed.definitions.map((definition) => definition.name)).toEqual(['old', 'new']);
    expect([...parsed.policies]).toEqual([['new', { tools: { rm: 'deny' } }]]);
  });

  it('refuses a bad policy by its field, naming the allowed values', () => {
    const server = (own: unknown) => ({
      coffer_config: 1,
      servers: { files: { transport: 'stdio', command: 'x', policies: own } },
    });
    const badTool = problemOf(server({ tools: { rm: 'never' } }));
    expect(badTool.path).toBe('servers.files.policies.tools.rm');
    expect(badTool.message).toBe(
      'Invalid config: servers.files.policies.tools.rm: a policy must be one of allow, ask, deny',
    );
    expect(problemOf(server({ destructive: true })).path).toBe(
      'servers.files.policies.destructive',
    );
    expect(problemOf(server({ destructive: 'ask', tool: {} })).message).toContain(
      'servers.files.policies',
    );
    expect(problemOf(server({ tools: { '': 'ask' } })).message).toContain(
      'a tool name must not be empty',
    );
  });

  it('round-trips: the exported file parses back to the same definitions', () => {
    const file = exportConfig([record('files')], new Map(), new Map());
    const parsed = parseConfigFile(JSON.parse(JSON.stringify(file)));
    expect(parsed.definitions).toEqual([
      expect.objectContaining({ name: 'files', command: 'npx' }),
    ]);
  });

  it('round-trips shared: written like every definition field, read back, planned as a field', () => {
    const file = exportConfig([record('fetch', { shared: true })], new Map(), new Map());
    expect(file.servers['fetch']).toMatchObject({ shared: true });
    const parsed = parseConfigFile(JSON.parse(JSON.stringify(file)));
    expect(parsed.definitions).toEqual([expect.objectContaining({ name: 'fetch', shared: true })]);
    const plan = (current: ServerRecord) =>
      planConfigImport({
        ...parsed,
        current: [current],
        preferences: new Map(),
        currentPolicies: new Map(),
        secrets: [],
      }).changes[0];
    expect(plan(record('fetch'))).toMatchObject({ action: 'update', fields: ['shared'] });
    expect(plan(record('fetch', { shared: true }))).toMatchObject({ action: 'unchanged' });
    // A file without the field (written before it existed) means the default: not shared.
    const old = parseConfigFile({
      coffer_config: 1,
      servers: { x: { transport: 'stdio', command: 'y' } },
    });
    expect(old.definitions[0]?.shared).toBe(false);
    expect(
      problemOf({
        coffer_config: 1,
        servers: { x: { transport: 'stdio', command: 'y', shared: 'yes' } },
      }).path,
    ).toBe('servers.x.shared');
  });

  it('says what a secret name may be, not the pattern it failed', () => {
    const bad = problemOf({
      coffer_config: 1,
      servers: { ok: { transport: 'stdio', command: 'node', secret_env: ['1TOKEN'] } },
    });
    expect(bad.path).toBe('servers.ok.secret_env[0]');
    expect(bad.message).toContain('letters, digits and "_", not starting with a digit');
    expect(bad.message).not.toContain('pattern');
  });

  it('refuses a name given both a plain value and a secret one, headers caselessly', () => {
    const both = problemOf({
      coffer_config: 1,
      servers: { ok: { transport: 'stdio', command: 'node', env: { A: 'x' }, secret_env: ['A'] } },
    });
    expect(both.path).toBe('servers.ok.env.A');
    expect(both.message).toContain('A is also in secret_env: keep it in one');
    const header = problemOf({
      coffer_config: 1,
      servers: {
        web: {
          transport: 'http',
          url: 'https://x.test/mcp',
          headers: { 'x-key': 'plain' },
          secret_headers: ['X-Key'],
        },
      },
    });
    expect(header.path).toBe('servers.web.headers.x-key');
  });

  it('names the bad field and says what is wrong', () => {
    expect(problemOf({ coffer_config: 2, servers: {} }).message).toContain(
      'coffer_config must be 1',
    );
    const badArg = problemOf({
      coffer_config: 1,
      servers: { files: { transport: 'stdio', command: 'npx', args: ['ok', 3] } },
    });
    expect(badArg.path).toBe('servers.files.args[1]');
    expect(badArg.message).toMatch(/^Invalid config: servers\.files\.args\[1\]: /);
    expect(problemOf({ coffer_config: 1, servers: { web: { transport: 'http' } } }).path).toBe(
      'servers.web.url',
    );
    expect(
      problemOf({
        coffer_config: 1,
        servers: { f: { transport: 'stdio', command: 'x', capabilities: { tools: {} } } },
      }).path,
    ).toBe('servers.f.capabilities');
    expect(problemOf({ coffer_config: 1, servers: {}, extra: 1 }).message).toContain('extra');
    expect(
      problemOf({
        coffer_config: 1,
        servers: { 'bad name!': { transport: 'stdio', command: 'x' } },
      }).message,
    ).toContain('servers.bad name!');
  });
});

describe('planning an import', () => {
  const parsed = parseConfigFile({
    coffer_config: 1,
    servers: {
      files: {
        transport: 'stdio',
        command: 'npx',
        args: ['-y', '@x/files'],
        env: { A: '1', B: '2' },
        capabilities: { tool: { write_file: false } },
        policies: { destructive: 'deny', tools: { rm: 'ask' } },
      },
      github: { transport: 'stdio', command: 'gh-mcp', secret_env: ['GITHUB_TOKEN'] },
    },
  });

  it('adds what is new, names the secrets to set, keeps servers the file does not mention', () => {
    const plan = planConfigImport({
      ...parsed,
      current: [record('local')],
      preferences: new Map(),
      currentPolicies: new Map([['local', policies('allow')]]),
      secrets: [],
    });
    expect(plan.changes).toEqual([
      {
        server: 'files',
        action: 'add',
        fields: [],
        capabilities: [{ type: 'tool', key: 'write_file', enabled: false }],
        policies: [
          { tool: null, policy: 'deny', was: 'ask' },
          { tool: 'rm', policy: 'ask', was: null },
        ],
        notes: [],
      },
      { server: 'github', action: 'add', fields: [], capabilities: [], policies: [], notes: [] },
    ]);
    expect(plan.missing_secrets).toEqual([
      {
        server: 'github',
        kind: 'env',
        name: 'GITHUB_TOKEN',
        command: 'coffer secrets set github --env GITHUB_TOKEN',
      },
    ]);
    expect(plan.kept).toEqual(['local']);
  });

  it('plans nothing once the file is in place (env key order is not a change)', () => {
    const plan = planConfigImport({
      ...parsed,
      current: [
        record('files'),
        record('github', { command: 'gh-mcp', args: [], env: {}, secret_env: ['GITHUB_TOKEN'] }),
      ],
      preferences: new Map([['files', [pref('files', 'write_file', false)]]]),
      currentPolicies: new Map([
        ['files', policies('deny', { rm: 'ask', other: 'allow' })],
        ['github', policies('allow', { x: 'deny' })],
      ]),
      secrets: [{ server: 'github', kind: 'env', name: 'GITHUB_TOKEN' }],
    });
    expect(plan.changes.map((change) => change.action)).toEqual(['unchanged', 'unchanged']);
    expect(plan.missing_secrets).toEqual([]);
  });

  it('lists the fields and switches an update changes', () => {
    const plan = planConfigImport({
      ...parsed,
      current: [record('files', { command: 'node', cwd: '/old' })],
      preferences: new Map([['files', [pref('files', 'write_file', true)]]]),
      currentPolicies: new Map([['files', policies('allow', { rm: 'allow' })]]),
      secrets: [],
    });
    expect(plan.changes[0]).toEqual({
      server: 'files',
      action: 'update',
      fields: ['command', 'cwd'],
      capabilities: [{ type: 'tool', key: 'write_file', enabled: false }],
      policies: [
        { tool: null, policy: 'deny', was: 'allow' },
        { tool: 'rm', policy: 'ask', was: 'allow' },
      ],
      notes: [],
    });
  });

  it('a policy change alone makes an update; policies the file leaves out are left alone', () => {
    const onlyPolicies = parseConfigFile({
      coffer_config: 1,
      servers: {
        files: {
          transport: 'stdio',
          command: 'npx',
          args: ['-y', '@x/files'],
          env: { A: '1', B: '2' },
          policies: { tools: { rm: 'deny' } },
        },
        old: {
          transport: 'stdio',
          command: 'npx',
          args: ['-y', '@x/old'],
          env: { A: '1', B: '2' },
        },
      },
    });
    const plan = planConfigImport({
      ...onlyPolicies,
      current: [record('files'), record('old')],
      preferences: new Map(),
      currentPolicies: new Map([
        ['files', policies('allow', { cat: 'allow' })],
        ['old', policies('deny', { rm: 'allow' })],
      ]),
      secrets: [],
    });
    expect(plan.changes).toEqual([
      {
        server: 'files',
        action: 'update',
        fields: [],
        capabilities: [],
        policies: [{ tool: 'rm', policy: 'deny', was: null }],
        notes: [],
      },
      { server: 'old', action: 'unchanged', fields: [], capabilities: [], policies: [], notes: [] },
    ]);
  });

  it("says when a new URL sends a server's stored secret headers to another origin", () => {
    const moved = parseConfigFile({
      coffer_config: 1,
      servers: {
        pkey: {
          transport: 'http',
          url: 'http://127.0.0.1:8674/mcp',
          secret_headers: ['X-Api-Key'],
        },
      },
    });
    const before = record('pkey', {
      transport: 'http',
      command: undefined,
      args: [],
      url: 'http://127.0.0.1:8673/key/mcp',
      env: {},
      secret_headers: ['X-Api-Key'],
    });
    const plan = planConfigImport({
      ...moved,
      current: [before],
      preferences: new Map(),
      currentPolicies: new Map(),
      secrets: [],
    });
    expect(plan.changes[0]).toMatchObject({
      action: 'update',
      fields: ['url'],
      notes: [
        expect.stringContaining('its secret headers (X-Api-Key) now go to http://127.0.0.1:8674'),
      ],
    });
  });
});

describe("a remote server's pre-registered OAuth client id in the config file", () => {
  const remote = (fields: Partial<ServerRecord> = {}) =>
    record('corp', {
      transport: 'http',
      url: 'https://corp.example/mcp',
      command: undefined,
      args: [],
      env: {},
      ...fields,
    });

  it('is exported when there is one, and parsed back', () => {
    const file = exportConfig([remote()], new Map(), new Map(), new Map([['corp', 'desk']]));
    expect(file.servers['corp']).toMatchObject({ oauth_client_id: 'desk' });
    expect(parseConfigFile(file).clients).toEqual(new Map([['corp', 'desk']]));
  });

  it('is refused for a local server, or empty', () => {
    const local = {
      coffer_config: 1,
      servers: { x: { transport: 'stdio', command: 'a', oauth_client_id: 'id' } },
    };
    expect(problemOf(local).path).toBe('servers.x.oauth_client_id');
    const empty = {
      coffer_config: 1,
      servers: { x: { transport: 'http', url: 'https://a.example', oauth_client_id: '' } },
    };
    expect(problemOf(empty).message).toContain('an OAuth client id must not be empty');
  });

  it('is planned when it differs, and left alone when the file has none', () => {
    const plan = (wanted: string | undefined, current: string | undefined) =>
      planConfigImport({
        definitions: [{ ...remote() }],
        switches: new Map(),
        policies: new Map(),
        clients: new Map(wanted === undefined ? [] : [['corp', wanted]]),
        current: [remote()],
        preferences: new Map(),
        currentPolicies: new Map(),
        secrets: [],
        currentClients: new Map(current === undefined ? [] : [['corp', current]]),
      }).changes[0];
    expect(plan('new', 'old')).toMatchObject({
      action: 'update',
      oauth_client: { client_id: 'new', was: 'old' },
    });
    expect(plan('new', undefined)?.oauth_client).toEqual({ client_id: 'new', was: null });
    expect(plan('same', 'same')?.action).toBe('unchanged');
    expect(plan(undefined, 'old')?.action).toBe('unchanged');
  });
});
