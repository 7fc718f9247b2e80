import { describe, expect, it } from 'vitest';
import {
  editPlan,
  checkSomethingChanges,
  type EditFlags,
} from '../../../src/cli/commands/mcp-edit-plan.js';
import type { AddPlan } from '../../../src/cli/commands/mcp-input.js';
import { CofferError } from '../../../src/domain/errors.js';
import {
  serverDefinitionSchema,
  type ServerRecord,
} from '../../../src/domain/server-definition.js';

function record(input: object): ServerRecord {
  const definition = serverDefinitionSchema.parse({ name: 'fx', ...input });
  return {
    ...definition,
    id: 1,
    created_at: '2026-12-07T00:00:00Z',
    updated_at: '2026-12-07T00:00:00Z',
  };
}

/** The secret names the edited definition keeps. */
function kept(plan: AddPlan) {
  return { env: plan.definition.secret_env, headers: plan.definition.secret_headers };
}

function flags(given: Partial<EditFlags> = {}): EditFlags {
  return {
    env: [],
    unsetEnv: [],
    header: [],
    unsetHeader: [],
    secretEnv: [],
    secretHeader: [],
    ...given,
  };
}

const local = record({
  transport: 'stdio',
  command: 'node',
  args: ['server.js'],
  env: { A: '1', B: '2' },
  cwd: '/srv/fx',
  secret_env: ['TOKEN'],
});
const remote = record({
  transport: 'sse',
  url: 'https://example.com/mcp',
  headers: { 'X-Team': 'blue' },
  secret_headers: ['Authorization'],
});

describe('editPlan', () => {
  it('keeps what no flag names: command, folder, env and secret names', () => {
    const plan = editPlan(local, [], flags({ env: ['C=3'], unsetEnv: ['A'] }), undefined);
    expect(plan.definition).toMatchObject({
      transport: 'stdio',
      command: 'node',
      args: ['server.js'],
      env: { B: '2', C: '3' },
      cwd: '/srv/fx',
    });
    expect(kept(plan)).toEqual({ env: ['TOKEN'], headers: [] });
  });

  it('a new command replaces command and arguments, the folder stays', () => {
    const plan = editPlan(local, ['/usr/bin/python3', '-m', 'fx'], flags(), undefined);
    expect(plan.definition).toMatchObject({
      command: '/usr/bin/python3',
      args: ['-m', 'fx'],
      cwd: '/srv/fx',
    });
  });

  it('an env given plainly or removed is no longer a secret name', () => {
    expect(kept(editPlan(local, [], flags({ env: ['TOKEN=plain'] }), undefined)).env).toEqual([]);
    expect(kept(editPlan(local, [], flags({ unsetEnv: ['TOKEN'] }), undefined)).env).toEqual([]);
  });

  it('keeps a remote server’s URL, protocol and headers; header names are caseless', () => {
    const plan = editPlan(
      remote,
      [],
      flags({ header: ['X-New: 1'], unsetHeader: ['x-team'] }),
      undefined,
    );
    expect(plan.definition).toMatchObject({
      transport: 'sse',
      url: 'https://example.com/mcp',
      headers: { 'X-New': '1' },
    });
    expect(kept(plan)).toEqual({ env: [], headers: ['Authorization'] });
    const plain = editPlan(remote, [], flags({ header: ['authorization: Basic x'] }), undefined);
    expect(kept(plain).headers).toEqual([]);
  });

  it('moves a server between local and remote, keeping nothing of the other kind', () => {
    const toRemote = editPlan(local, [], flags({ url: 'http://127.0.0.1:9/mcp' }), undefined);
    expect(toRemote.definition).toMatchObject({
      transport: 'http',
      url: 'http://127.0.0.1:9/mcp',
      env: {},
    });
    expect(kept(toRemote)).toEqual({ env: [], headers: [] });
    const toLocal = editPlan(remote, ['node', 'x.js'], flags(), undefined);
    expect(toLocal.definition).toMatchObject({ transport: 'stdio', command: 'node', headers: {} });
    expect(toLocal.definition.cwd).toBeUndefined();
    expect(kept(toLocal)).toEqual({ env: [], headers: [] });
  });

  it('--unset-cwd clears the folder, of the old command or a new one that names a path', () => {
    const cleared = editPlan(local, [], flags({ unsetCwd: true }), undefined);
    expect(cleared.definition).toMatchObject({ command: 'node', args: ['server.js'] });
    expect(cleared.definition.cwd).toBeUndefined();
    const folder = { dir: '/home/ann/project', exists: () => true };
    const anchored = editPlan(local, ['node', 'build/index.js'], flags(), folder);
    expect(anchored.definition.cwd).toBe('/home/ann/project');
    const notAnchored = editPlan(
      local,
      ['node', 'build/index.js'],
      flags({ unsetCwd: true }),
      folder,
    );
    expect(notAnchored.definition.cwd).toBeUndefined();
  });

  it.each([
    [
      'a folder it does not have',
      record({ transport: 'stdio', command: 'node' }),
      flags({ unsetCwd: true }),
      /"fx" has no working directory to remove/,
    ],
    ['--unset-cwd of a remote server', remote, flags({ unsetCwd: true }), /--unset-cwd applies/],
    ['an env it does not have', local, flags({ unsetEnv: ['NOPE'] }), /"fx" has no env NOPE/],
    ['a header of a local server', local, flags({ unsetHeader: ['X'] }), /"fx" has no header X/],
    ['env for a remote server', remote, flags({ env: ['A=1'] }), /--env and --cwd apply to local/],
    ['an env of a remote server', remote, flags({ unsetEnv: ['A'] }), /"fx" has no env A/],
  ])('refuses %s with INVALID_INPUT', (_what, current, given, message) => {
    expect(() => editPlan(current, [], given, undefined)).toThrow(message);
    expect(() => editPlan(current, [], given, undefined)).toThrow(CofferError);
  });

  it('refuses an edit that changes nothing', () => {
    expect(() => checkSomethingChanges('fx', [], flags())).toThrow(/Say what to change of "fx"/);
    expect(() => checkSomethingChanges('fx', [], flags({ cwd: '/x' }))).not.toThrow();
    expect(() => checkSomethingChanges('fx', ['node'], flags())).not.toThrow();
    expect(() => checkSomethingChanges('fx', [], flags({ unsetCwd: true }))).not.toThrow();
    expect(() => checkSomethingChanges('fx', [], flags({ cwd: '/x', unsetCwd: true }))).toThrow(
      /Give --cwd or --unset-cwd, not both/,
    );
  });

  it('turns a plain env value into a secret when --secret-env names it', () => {
    const current = record({ transport: 'stdio', command: 'node', env: { A: '2', B: '3' } });
    const plan = editPlan(current, [], flags({ secretEnv: ['A'] }), undefined);
    expect(plan.definition.env).toEqual({ B: '3' });
    expect(plan.notes).toContain('env A is a secret now: its plain value was dropped');
    // Given again with --env in the same command, it is still refused by the secrets' check.
    const again = editPlan(current, [], flags({ env: ['A=4'], secretEnv: ['A'] }), undefined);
    expect(again.definition.env).toEqual({ A: '4', B: '3' });
  });

  it('refuses a --url and a command together, as mcp add does, instead of dropping the URL', () => {
    const both = () =>
      checkSomethingChanges('fx', ['node', 'b.js'], flags({ url: 'http://x/mcp' }));
    expect(both).toThrow(/Give either --url or a command, not both/);
    expect(both).toThrow(CofferError);
  });
});
