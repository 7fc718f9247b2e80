import { describe, expect, it } from 'vitest';
import type { SnapshotFailure } from '../../../src/daemon/config-snapshot.js';
import { createDoctor, type DoctorDeps } from '../../../src/daemon/doctor.js';
import { nodeFinding } from '../../../src/daemon/doctor-findings.js';
import { CofferError } from '../../../src/domain/errors.js';
import type { SecretRef, SecretStore } from '../../../src/domain/ports.js';
import type { ServerRecord } from '../../../src/domain/server-definition.js';
import { ServerStates } from '../../../src/gateway/server-states.js';

const clock = { now: () => new Date('2026-01-01T00:00:00Z') };

function record(name: string, fields: Partial<ServerRecord> = {}): ServerRecord {
  return {
    name,
    transport: 'stdio',
    command: 'npx',
    args: ['-y', name],
    env: {},
    headers: {},
    secret_env: [],
    secret_headers: [],
    enabled: true,
    auto_enable_new_capabilities: true,
    shared: false,
    id: 1,
    created_at: '',
    updated_at: '',
    ...fields,
  };
}

function doctor(records: ServerRecord[], overrides: Partial<DoctorDeps> = {}) {
  const states = new ServerStates(clock);
  const stored: SecretRef[] = [];
  const deps: DoctorDeps = {
    servers: { list: () => Promise.resolve(records) },
    states,
    secrets: {
      backend: () => Promise.resolve({ backend: 'keychain' }),
      list: () => Promise.resolve(stored),
    },
    searchPath: () => Promise.resolve('/usr/bin'),
    findCommand: (command) =>
      command === 'npx' || command === 'node' ? `/usr/bin/${command}` : undefined,
    files: {
      directoryExists: (path) => path === '/home/ann/project',
      fileExists: (path) => path === '/home/ann/project/build/index.js',
    },
    daemon: { pid: 42, port: 8000, startedAt: new Date('2026-01-01T00:00:00Z') },
    versions: { coffer: '1.2.3', node: 'v22.1.0' },
    platform: 'linux',
    ...overrides,
  };
  return {
    report: (options?: { agents?: boolean }) => createDoctor(deps).report(options),
    states,
    stored,
  };
}

describe('the doctor report', () => {
  it('reports a healthy set-up without findings', async () => {
    const { report } = doctor([
      record('files'),
      record('web', {
        transport: 'http',
        command: undefined,
        url: 'https://x/mcp',
      }),
    ]);
    const result = await report();
    expect(result).toMatchObject({
      coffer_version: '1.2.3',
      node_version: 'v22.1.0',
      daemon: { pid: 42, port: 8000, started_at: '2026-01-01T00:00:00.000Z' },
      keychain: { backend: 'keychain' },
      search_path: '/usr/bin',
      findings: [],
    });
    expect(result.servers).toEqual([
      expect.objectContaining({
        name: 'files',
        command: 'npx',
        command_path: '/usr/bin/npx',
        state: 'idle',
      }),
      expect.objectContaining({ name: 'web', command: null, command_path: null }),
    ]);
  });

  it('says which command is not found, with the fix', async () => {
    const { report } = doctor([record('ghost', { command: 'uvx' })]);
    const [finding] = (await report()).findings;
    expect(finding).toMatchObject({
      code: 'COMMAND_NOT_FOUND',
      level: 'fail',
      subject: 'ghost',
      message: expect.stringContaining('command not found: uvx'),
      fix: expect.stringContaining('coffer mcp edit ghost -- <full path> <its arguments>'),
    });
  });

  it('says a working directory that is not there, once, and not as a command off the PATH', async () => {
    const { report, states } = doctor([
      record('moved', { command: './run.sh', cwd: '/home/ann/old-checkout' }),
      record('here', { cwd: '/home/ann/project' }),
    ]);
    states.failed('moved', new CofferError('UPSTREAM_UNAVAILABLE', 'could not start'));
    const findings = (await report()).findings;
    expect(findings).toEqual([
      {
        code: 'CWD_NOT_FOUND',
        level: 'fail',
        subject: 'moved',
        message: 'its working directory does not exist: /home/ann/old-checkout',
        fix: 'create it, or give the server the folder it runs in: coffer mcp edit moved --cwd <folder>',
      },
    ]);
  });

  it('says a script an interpreter is to run that is not there, and not the failure it causes', async () => {
    const { report, states } = doctor([
      record('built', { command: 'node', args: ['build/index.js'], cwd: '/home/ann/project' }),
      record('unbuilt', { command: 'node', args: ['/home/ann/project/dist/index.js', '--x'] }),
      record('relative', { command: 'node', args: ['dist/index.js'] }),
      record('inline', { command: 'node', args: ['-e', 'console.log(1)'] }),
      record('package', { command: 'npx', args: ['-y', 'pkg/x.js'] }),
    ]);
    states.failed('unbuilt', new CofferError('UPSTREAM_UNAVAILABLE', 'exited with code 1'));
    expect((await report()).findings).toEqual([
      {
        code: 'SCRIPT_NOT_FOUND',
        level: 'fail',
        subject: 'unbuilt',
        message: 'the script it runs does not exist: /home/ann/project/dist/index.js',
        fix: "build or install it there, or give the server the script's path: coffer mcp edit unbuilt -- node <script> <its arguments>",
      },
    ]);
  });

  it('says a failure once: a command not found or a secret missing is why the server fails', async () => {
    const { report, states, stored } = doctor([
      record('ghost', { command: 'uvx' }),
      record('github', { secret_env: ['GITHUB_TOKEN'] }),
      record('linear', { secret_env: ['LINEAR_KEY'] }),
    ]);
    stored.push({ server: 'linear', kind: 'env', name: 'LINEAR_KEY' });
    states.failed(
      'ghost',
      new CofferError('UPSTREAM_UNAVAILABLE', 'Upstream "ghost" could not start: not found'),
    );
    states.failed('github', new CofferError('SECRET_NOT_FOUND', 'GITHUB_TOKEN is not set'));
    // Set since the failure: the failure is the one left to retry.
    states.failed('linear', new CofferError('SECRET_NOT_FOUND', 'LINEAR_KEY is not set'));
    const findings = (await report()).findings.map((f) => `${f.code} ${f.subject}`);
    expect(findings).toEqual([
      'COMMAND_NOT_FOUND ghost',
      'SECRET_MISSING github',
      'SERVER_FAILING linear',
    ]);
  });

  it('names the secret to set, never a value', async () => {
    const { report, stored } = doctor([
      record('github', { secret_env: ['GITHUB_TOKEN', 'OTHER'] }),
    ]);
    stored.push({ server: 'github', kind: 'env', name: 'OTHER' });
    const findings = (await report()).findings;
    expect(findings).toEqual([
      expect.objectContaining({
        code: 'SECRET_MISSING',
        subject: 'github',
        fix: 'coffer secrets set github --env GITHUB_TOKEN',
      }),
    ]);
  });

  it('warns of a secret no server names, with the command that deletes it', async () => {
    const { report, stored } = doctor([record('github', { secret_env: ['GITHUB_TOKEN'] })]);
    stored.push(
      { server: 'github', kind: 'env', name: 'GITHUB_TOKEN' },
      { server: 'github', kind: 'env', name: 'OLD_TOKEN' },
      { server: 'gone', kind: 'header', name: 'Authorization' },
    );
    expect((await report()).findings).toEqual([
      {
        code: 'SECRET_UNUSED',
        level: 'warn',
        subject: 'keychain',
        message: 'the keychain keeps env OLD_TOKEN of github, which github no longer names',
        fix: 'coffer secrets remove github --env OLD_TOKEN',
      },
      {
        code: 'SECRET_UNUSED',
        level: 'warn',
        subject: 'keychain',
        message: 'the keychain keeps header Authorization of gone, a server Coffer no longer has',
        fix: 'coffer secrets remove gone --header Authorization',
      },
    ]);
  });

  it('gives the last error and a fix that fits its code', async () => {
    const { report, states } = doctor([
      record('slow'),
      record('remote'),
      record('off', { enabled: false, command: 'nothing' }),
    ]);
    states.failed(
      'slow',
      new CofferError('UPSTREAM_TIMEOUT', 'Upstream "slow" did not answer in time'),
    );
    states.failed('remote', new CofferError('AUTH_REQUIRED', 'sign in'));
    const result = await report();
    expect(result.findings).toEqual([
      expect.objectContaining({
        code: 'SERVER_FAILING',
        subject: 'slow',
        message: 'Upstream "slow" did not answer in time',
        fix: expect.stringContaining('COFFER_CONNECT_TIMEOUT_MS'),
      }),
      expect.objectContaining({ code: 'SERVER_NEEDS_SIGN_IN', fix: 'coffer mcp login remote' }),
    ]);
    // A disabled server is shown as such and is not a problem.
    expect(result.servers[2]).toMatchObject({ state: 'disabled', command_path: null });
  });

  it("says a remote server's crash loop as dropped connections, and where to look", async () => {
    const { report, states } = doctor([
      record('web', { transport: 'http', command: undefined, url: 'http://127.0.0.1:9/mcp' }),
    ]);
    for (let i = 0; i < 3; i++) {
      states.connected('web');
      states.disconnected('web', true, false);
    }
    expect((await report()).findings).toEqual([
      expect.objectContaining({
        code: 'SERVER_FAILING',
        message: 'web keeps dropping the connection: Upstream "web" dropped the connection',
        fix: 'check that it is up and its URL (coffer mcp show web); then retry: coffer mcp test web',
      }),
    ]);
  });

  it("shows a server's last start and how long it took", async () => {
    let now = Date.parse('2026-01-01T00:00:00Z');
    const states = new ServerStates({ now: () => new Date(now) });
    const { report } = doctor([record('files')], { states });
    let started!: () => void;
    states.starting('files', new Promise<void>((resolve) => (started = resolve)));
    expect((await report()).servers[0]?.state).toBe('starting');
    now += 2_500;
    started();
    await Promise.resolve();
    expect((await report()).servers[0]).toMatchObject({
      started_at: '2026-01-01T00:00:02.500Z',
      start_ms: 2_500,
    });
  });

  it('warns when secrets live in the fallback file, and still reports when listing them fails', async () => {
    const { report } = doctor([record('files', { secret_env: ['KEY'] })], {
      secrets: {
        backend: () =>
          Promise.resolve({
            backend: 'file',
            location: '/home/me/.coffer/secrets.json',
            reason: 'no keychain',
          }),
        list: () => Promise.reject(new Error('locked')),
      },
    });
    const codes = (await report()).findings.map((finding) => [finding.code, finding.level]);
    expect(codes).toEqual([
      ['KEYCHAIN_FALLBACK', 'warn'],
      ['SECRET_MISSING', 'fail'],
    ]);
  });

  it('warns of tools held back for a changed definition, with the command that reviews them', async () => {
    const held: Record<string, string[]> = { web: ['fetch', 'wipe'], files: ['read'], off: ['x'] };
    const { report } = doctor([record('web'), record('files'), record('off', { enabled: false })], {
      heldTools: (server) => Promise.resolve(held[server] ?? []),
    });
    const findings = (await report()).findings;
    expect(findings).toEqual([
      {
        code: 'TOOLS_CHANGED',
        level: 'warn',
        subject: 'web',
        message:
          '2 tools of web changed their definitions since you allowed them, and are held back (agents do not see them): fetch, wipe',
        fix: 'coffer mcp review web',
      },
      expect.objectContaining({
        code: 'TOOLS_CHANGED',
        subject: 'files',
        message: expect.stringMatching(/^1 tool of files changed its definition .*: read$/),
        fix: 'coffer mcp review files',
      }),
    ]);
  });

  it('warns of a server that starts exactly as an earlier one, and not of a disabled copy', async () => {
    const { report } = doctor([
      record('files', { id: 1 }),
      record('files-copy', { id: 3, args: ['-y', 'files'] }),
      record('files-off', { id: 2, args: ['-y', 'files'], enabled: false }),
      record('files-other', { id: 4, args: ['-y', 'files', '--read-only'] }),
    ]);
    expect((await report()).findings).toEqual([
      {
        code: 'SERVER_DUPLICATE',
        level: 'warn',
        subject: 'files-copy',
        message:
          'starts the same server as "files" (same command and settings): agents list its tools twice',
        fix: 'keep one: coffer mcp remove files-copy',
      },
    ]);
  });

  it('tells two accounts of one service (secret headers that differ) from one server twice', async () => {
    const remote = (name: string, id: number) =>
      record(name, {
        id,
        transport: 'http',
        command: undefined,
        args: [],
        url: 'https://api.example.com/mcp',
        secret_headers: ['Authorization'],
      });
    const tokens: Record<string, string> = {
      work: 'Bearer w',
      personal: 'Bearer p',
      again: 'Bearer w',
    };
    const records = [remote('work', 1), remote('personal', 2), remote('again', 3)];
    const duplicates = async (get: SecretStore['get']) => {
      const secrets = {
        backend: () => Promise.resolve({ backend: 'keychain' as const }),
        list: () => Promise.resolve([]),
        get,
      };
      const { findings } = await doctor(records, { secrets }).report();
      return findings.filter(({ code }) => code === 'SERVER_DUPLICATE').map((f) => f.message);
    };
    expect(await duplicates((ref) => Promise.resolve(tokens[ref.server]))).toEqual([
      'starts the same server as "work" (same command and settings): agents list its tools twice',
    ]);
    // A keychain that cannot be read says no less than before.
    expect(await duplicates(() => Promise.reject(new Error('locked')))).toHaveLength(2);
  });

  it('warns of a credential kept as a plain value, by its kind and never its value', async () => {
    const token = `ghp_${'a'.repeat(36)}`;
    const { report } = doctor([
      record('gh', { env: { GITHUB_TOKEN: token, LOG_LEVEL: 'debug' }, enabled: false }),
    ]);
    const { findings } = await report();
    expect(findings).toEqual([
      {
        code: 'SECRET_IN_DEFINITION',
        level: 'warn',
        subject: 'gh',
        message:
          'env GITHUB_TOKEN of gh holds a credential (github-token) as a plain value: the database keeps it, and the API and coffer mcp show print it',
        fix: 'move it to the keychain: coffer mcp edit gh --unset-env GITHUB_TOKEN --secret-env GITHUB_TOKEN (it asks for the value), or in coffer ui, edit gh and put GITHUB_TOKEN under Secrets',
      },
    ]);
    expect(JSON.stringify(findings)).not.toContain(token);
  });

  it('warns of a credential in a server URL, by where it is and never its value', async () => {
    const { report } = doctor([
      record('docs', {
        transport: 'http',
        command: undefined,
        args: [],
        url: 'https://mcp.example/mcp?api_key=k3y-in-the-url',
      }),
    ]);
    const { findings } = await report();
    expect(findings).toContainEqual(
      expect.objectContaining({
        code: 'SECRET_IN_DEFINITION',
        subject: 'docs',
        message: expect.stringContaining(
          'the URL of docs holds a credential (its query parameter "api_key")',
        ),
      }),
    );
    expect(JSON.stringify(findings)).not.toContain('k3y-in-the-url');
  });

  it('still reports when the pin records cannot be read', async () => {
    const { report } = doctor([record('web')], {
      heldTools: () => Promise.reject(new Error('database is locked')),
    });
    expect((await report()).findings).toEqual([]);
  });

  it("adds the agents' check, unless asked without it, and stands when that check fails", async () => {
    const shim = {
      code: 'AGENT_SHIM_BROKEN' as const,
      level: 'fail' as const,
      subject: 'cursor',
      message: 'Cursor (~/.cursor/mcp.json [user]): it runs /old/node, which is not there',
      fix: 'coffer agents install cursor',
    };
    const cursor = { id: 'cursor', name: 'Cursor', config: '/h/.cursor/mcp.json' };
    const agent = { ...cursor, shim_ok: false, problem: 'it runs /old/node, which is not there' };
    let asked = 0;
    const agents = () => {
      asked += 1;
      return Promise.resolve({ agents: [agent], findings: [shim] });
    };
    const { report } = doctor([record('files')], { agents });
    expect(await report()).toMatchObject({ agents: [agent], findings: [shim] });
    const without = await report({ agents: false });
    expect(without.findings).toEqual([]);
    expect(without).not.toHaveProperty('agents');
    expect(asked).toBe(1);
    const failing = doctor([record('files')], {
      agents: () => Promise.reject(new Error('a parser failed to load')),
    });
    const stands = await failing.report();
    expect(stands.servers).toHaveLength(1);
    expect(stands).not.toHaveProperty('agents');
  });

  it('warns of a daemon whose files were replaced under it, with the restart, only then', async () => {
    let replaced = false;
    const { report } = doctor([], { codeReplaced: () => replaced });
    expect((await report()).findings).toEqual([]);
    replaced = true;
    expect((await report()).findings).toEqual([
      {
        code: 'DAEMON_OUTDATED',
        level: 'warn',
        subject: 'daemon',
        message: expect.stringContaining(
          'Coffer was updated or rebuilt since this daemon started (pid 42, 2026-01-01T00:00:00.000Z)',
        ),
        fix: expect.stringContaining('coffer stop'),
      },
    ]);
  });

  it('says the database was restored at start, how many servers came back and which did not', async () => {
    let aside = true;
    const { report } = doctor([], {
      restored: () =>
        aside
          ? {
              at: '2026-01-01T00:00:00.000Z',
              damagedPath: '/home/me/.coffer/coffer.db.damaged-2026-01-01T00-00-00-000Z',
              snapshotAt: '2025-12-31T23:59:00.000Z',
              restored: ['files', 'github'],
              failed: ['notes'],
              pins: 12,
            }
          : undefined,
    });
    const [finding] = (await report()).findings;
    expect(finding).toMatchObject({
      code: 'DATABASE_RESTORED',
      level: 'warn',
      subject: 'database',
    });
    expect(finding?.message).toContain(
      'set it aside as /home/me/.coffer/coffer.db.damaged-2026-01-01T00-00-00-000Z and restored 2 servers from the configuration snapshot of 2025-12-31T23:59:00.000Z',
    );
    expect(finding?.message).toContain('could not restore notes');
    expect(finding?.message).toContain('12 tool pins restored');
    expect(finding?.fix).toContain('delete /home/me/.coffer/coffer.db.damaged-');
    aside = false; // the user deleted the file set aside: the notice goes
    expect((await report()).findings).toEqual([]);
  });

  it('says when the tool pins could not be restored, and what that means', async () => {
    const { report } = doctor([], {
      restored: () => ({
        at: '2026-01-01T00:00:00.000Z',
        damagedPath: '/home/me/.coffer/coffer.db.damaged-2026-01-01T00-00-00-000Z',
        snapshotAt: '2025-12-31T23:59:00.000Z',
        restored: ['files'],
        failed: [],
        pins: 0,
        pinsMissing: 'there is no tool-pins-snapshot.json',
      }),
    });
    const [finding] = (await report()).findings;
    expect(finding?.message).toContain(
      'tool pins not restored (there is no tool-pins-snapshot.json): each tool is pinned again at its next listing',
    );
  });

  it('warns while the configuration snapshot cannot be written, and says why', async () => {
    let failure: SnapshotFailure | undefined = { file: 'config-snapshot.json', why: 'EACCES' };
    const { report } = doctor([], { snapshotFailure: () => failure });
    expect((await report()).findings).toEqual([
      {
        code: 'SNAPSHOT_FAILING',
        level: 'warn',
        subject: 'database',
        message: expect.stringContaining('config-snapshot.json could not be written (EACCES)'),
        fix: expect.stringContaining('make the Coffer home writable'),
      },
    ]);
    failure = { file: 'tool-pins-snapshot.json', why: 'ENOSPC' };
    expect((await report()).findings[0]?.message).toBe(
      'tool-pins-snapshot.json could not be written (ENOSPC): if coffer.db were damaged now, your tool pins could not be restored from it',
    );
    failure = undefined;
    expect((await report()).findings).toEqual([]);
  });

  it('fails a Node older than 20.19', () => {
    expect(nodeFinding('v20.19.0')).toBeUndefined();
    expect(nodeFinding('v22.0.0')).toBeUndefined();
    expect(nodeFinding('v20.18.3')).toMatchObject({ code: 'NODE_VERSION', level: 'fail' });
    expect(nodeFinding('v18.20.0')).toMatchObject({ code: 'NODE_VERSION' });
  });
});
