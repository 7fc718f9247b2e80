import { randomBytes } from 'node:crypto';
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  assertBuilt,
  ProcessTracker,
  runCoffer,
  waitFor,
} from '../../integration/daemon/daemon-harness.js';
import { modernEnvelope, postModern } from '../../support/modern-post.js';
import { fixtureServer } from '../../support/running-daemon.js';

/**
 * A damaged coffer.db (a disk fault, a copy taken mid-write) as a user meets it: with the
 * configuration snapshot the daemon keeps, the next command starts a daemon that sets the
 * file aside and serves every server with its switches and policies, and `coffer doctor`
 * says what happened; without one, every command says the database is damaged and how to
 * get the servers back, and the file is left as it was. Unit and store-level cases are in
 * test/unit/daemon/config-snapshot.test.ts and test/integration/daemon/store-recovery.test.ts.
 */
const tracker = new ProcessTracker();

beforeAll(() => assertBuilt());
// Ends the daemons by the pids their homes logged, then removes the homes.
afterEach(() => tracker.cleanup());

async function home(): Promise<{ dir: string; env: NodeJS.ProcessEnv }> {
  const { home: dir, env } = await tracker.userEnv();
  return { dir, env: { ...env, COFFER_KEYCHAIN: 'file' } };
}

/** A server with a switched-off tool and a tool's own policy, then the daemon stopped. */
async function registered(env: NodeJS.ProcessEnv, dir: string): Promise<void> {
  for (const args of [
    ['mcp', 'add', 'fx', '--', process.execPath, fixtureServer],
    ['mcp', 'disable', 'fx', '--tool', 'echo'],
    ['mcp', 'policy', 'fx', '--tool', 'add', 'deny'],
  ]) {
    const run = await runCoffer(args, env);
    expect(run.code, run.stderr).toBe(0);
  }
  // An agent's list pins the enabled tools (docs/SECURITY.md): the pin snapshot follows.
  const { port, token } = JSON.parse(readFileSync(join(dir, 'daemon.json'), 'utf8')) as {
    port: number;
    token: string;
  };
  const listed = (await postModern(
    { baseUrl: `http://127.0.0.1:${port}`, token },
    {
      jsonrpc: '2.0',
      id: 1,
      method: 'tools/list',
      params: { _meta: modernEnvelope('damaged-database') },
    },
  )) as { result?: { tools?: unknown[] } };
  expect(listed.result?.tools?.length).toBeGreaterThan(0);
  const holds = (file: string, text: string) => () => {
    try {
      return readFileSync(join(dir, file), 'utf8').includes(text) || undefined;
    } catch {
      return undefined;
    }
  };
  await waitFor(holds('config-snapshot.json', '"deny"'), 'the snapshot to hold the policy');
  await waitFor(holds('tool-pins-snapshot.json', '"key"'), 'the pin snapshot to hold a pin');
  expect((await runCoffer(['stop'], env)).code).toBe(0);
}

async function findingCodes(env: NodeJS.ProcessEnv): Promise<string[]> {
  const doctor = await runCoffer(['doctor', '--json'], env);
  return (JSON.parse(doctor.stdout) as { findings: { code: string }[] }).findings.map(
    (finding) => finding.code,
  );
}

function breakDatabase(dir: string): Buffer {
  const path = join(dir, 'coffer.db');
  const bytes = readFileSync(path);
  randomBytes(4096).copy(bytes, 0);
  writeFileSync(path, bytes);
  return bytes;
}

describe('a damaged database', () => {
  it('is set aside at the next start, and every server comes back with its choices', async () => {
    const { dir, env } = await home();
    await registered(env, dir);
    const damaged = breakDatabase(dir);

    const list = await runCoffer(['mcp', 'list', '--json'], env);
    expect(list.code, list.stderr).toBe(0);
    const { servers } = JSON.parse(list.stdout) as { servers: { name: string }[] };
    expect(servers.map((server) => server.name)).toEqual(['fx']);
    const test = await runCoffer(['mcp', 'test', 'fx'], env);
    expect(test.code, test.stderr).toBe(0);
    const policy = await runCoffer(['mcp', 'policy', 'fx', '--json'], env);
    const { tools } = JSON.parse(policy.stdout) as {
      tools: { key: string; policy: string | null; enabled: boolean }[];
    };
    expect(tools.find((tool) => tool.key === 'add')).toMatchObject({ policy: 'deny' });
    expect(tools.find((tool) => tool.key === 'echo')).toMatchObject({ enabled: false });

    const aside = readdirSync(dir).filter((name) => name.startsWith('coffer.db.damaged-'));
    expect(aside).toHaveLength(1);
    expect(readFileSync(join(dir, aside[0]!))).toEqual(damaged);
    const doctor = await runCoffer(['doctor', '--json'], env);
    const finding = (
      JSON.parse(doctor.stdout) as { findings: { code: string; message: string }[] }
    ).findings.find((entry) => entry.code === 'DATABASE_RESTORED');
    expect(finding?.message).toContain(aside[0]);
    expect(finding?.message).toContain('restored 1 server from');
    const pinsAfter = /(\d+) tool pins restored/.exec(finding?.message ?? '');
    expect(Number(pinsAfter?.[1])).toBeGreaterThan(0);
    const activity = await runCoffer(['activity'], env);
    expect(activity.stdout).toContain('database.restore');
    // The fix says to delete the file set aside once content: the finding goes with it.
    rmSync(join(dir, aside[0]!));
    expect(await findingCodes(env)).not.toContain('DATABASE_RESTORED');
  });

  it('without a snapshot, stops every command with what to do, and keeps the file', async () => {
    const { dir, env } = await home();
    await registered(env, dir);
    rmSync(join(dir, 'config-snapshot.json'));
    const damaged = breakDatabase(dir);

    const list = await runCoffer(['mcp', 'list'], env);
    expect(list.code).toBe(1);
    expect(list.stderr).toContain(
      'The Coffer database is damaged, and there is no snapshot to restore it from',
    );
    expect(list.stderr).toContain('coffer config import');
    expect(readFileSync(join(dir, 'coffer.db'))).toEqual(damaged);
    expect(readdirSync(dir).filter((name) => name.startsWith('coffer.db.damaged-'))).toEqual([]);
  });

  it('restores a server as the file held it, a plain credential stored before the guard too', async () => {
    const { dir, env } = await home();
    const token = `ghp_${'a1B2c3D4e5'.repeat(3)}123456`;
    const snapshot = {
      coffer_config: 1,
      servers: {
        legacy: {
          transport: 'stdio',
          command: process.execPath,
          args: [fixtureServer],
          env: { GITHUB_TOKEN: token },
        },
      },
    };
    writeFileSync(join(dir, 'config-snapshot.json'), JSON.stringify(snapshot), { mode: 0o600 });
    writeFileSync(join(dir, 'coffer.db'), randomBytes(8192), { mode: 0o600 });

    const list = await runCoffer(['mcp', 'list', '--json'], env);
    expect(list.code, list.stderr).toBe(0);
    const { servers } = JSON.parse(list.stdout) as { servers: { name: string }[] };
    expect(servers.map((server) => server.name)).toEqual(['legacy']);
    const doctor = JSON.parse((await runCoffer(['doctor', '--json'], env)).stdout) as {
      findings: { code: string; subject: string }[];
    };
    expect(doctor.findings).toContainEqual(
      expect.objectContaining({ code: 'SECRET_IN_DEFINITION', subject: 'legacy' }),
    );
  });

  it('says so while the snapshot cannot be written, and no more once it can', async () => {
    const { dir, env } = await home();
    const snapshot = join(dir, 'config-snapshot.json');
    expect(
      (await runCoffer(['mcp', 'add', 'fx', '--', process.execPath, fixtureServer], env)).code,
    ).toBe(0);
    rmSync(snapshot);
    mkdirSync(snapshot); // something in its way: the write's rename fails
    expect((await runCoffer(['mcp', 'disable', 'fx', '--tool', 'echo'], env)).code).toBe(0);
    await waitFor(
      async () => (await findingCodes(env)).includes('SNAPSHOT_FAILING') || undefined,
      'the doctor to warn of the snapshot',
    );
    rmSync(snapshot, { recursive: true });
    expect((await runCoffer(['mcp', 'enable', 'fx', '--tool', 'echo'], env)).code).toBe(0);
    await waitFor(
      async () => !(await findingCodes(env)).includes('SNAPSHOT_FAILING') || undefined,
      'the warning to go',
    );
    expect(readFileSync(snapshot, 'utf8')).toContain('"fx"');
  });
});
