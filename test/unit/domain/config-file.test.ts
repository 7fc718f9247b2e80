import { describe, expect, it } from 'vitest';
import type { CapabilityPreference } from '../../../src/domain/capability.js';
import { exportConfig, parseConfigFile } from '../../../src/domain/config-file.js';
import { planConfigImport } from '../../../src/domain/config-plan.js';
import { CofferError } from '../../../src/domain/errors.js';
import type { ServerRecord } from '../../../src/domain/server-definition.js';

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
    id: 7,
    created_at: 't',
    updated_at: 't',
    ...fields,
  };
}

function pref(server: string, key: string, enabled: boolean): CapabilityPreference {
  return { server, type: 'tool', key, enabled, first_seen_at: 't', last_seen_at: 't' };
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
          capabilities: { tool: { write_file: false } },
        },
      },
    });
  });

  it('round-trips: the exported file parses back to the same definitions', () => {
    const file = exportConfig([record('files')], new Map());
    const parsed = parseConfigFile(JSON.parse(JSON.stringify(file)));
    expect(parsed.definitions).toEqual([
      expect.objectContaining({ name: 'files', command: 'npx' }),
    ]);
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
      },
      github: { transport: 'stdio', command: 'gh-mcp', secret_env: ['GITHUB_TOKEN'] },
    },
  });

  it('adds what is new, names the secrets to set, keeps servers the file does not mention', () => {
    const plan = planConfigImport({
      ...parsed,
      current: [record('local')],
      preferences: new Map(),
      secrets: [],
    });
    expect(plan.changes).toEqual([
      {
        server: 'files',
        action: 'add',
        fields: [],
        capabilities: [{ type: 'tool', key: 'write_file', enabled: false }],
      },
      { server: 'github', action: 'add', fields: [], capabilities: [] },
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
      secrets: [],
    });
    expect(plan.changes[0]).toEqual({
      server: 'files',
      action: 'update',
      fields: ['command', 'cwd'],
      capabilities: [{ type: 'tool', key: 'write_file', enabled: false }],
    });
  });
});
