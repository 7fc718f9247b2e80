import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { chmodSync, chownSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  assertBuilt,
  binPath,
  cofferEnv,
  freePortBlock,
  makeHome,
  ProcessTracker,
  readDaemonJson,
  terminate,
  waitFor,
} from '../../integration/daemon/daemon-harness.js';

/**
 * A Coffer home the daemon may not write: its database made read-only, or the whole home
 * left owned by another user (what `sudo coffer start` once does to ~/.coffer). Coffer
 * must refuse to start with STORE_FAILURE and say what to do, exit non-zero at once,
 * leave no daemon.json, and not change a byte of the existing data; once the user fixes
 * the permissions, everything is there.
 *
 * Root ignores file modes, so under root the coffer processes run as `nobody`; a full disk
 * cannot be made here without root-only mounts, and fails through the same paths (ENOSPC
 * is named in the same message).
 */
const NOBODY = 65_534;
const asRoot = process.getuid?.() === 0;
/** Who runs coffer: ourselves, or nobody when we are root. */
const runner = asRoot ? { uid: NOBODY, gid: NOBODY } : {};
const tracker = new ProcessTracker();

beforeAll(() => assertBuilt());
afterEach(async () => {
  for (const home of homes.splice(0)) makeOwn(home);
  await tracker.cleanup();
});
const homes: string[] = [];

interface Run {
  readonly code: number | null;
  readonly signal: NodeJS.Signals | null;
  readonly stderr: string;
}

function coffer(args: string[], env: NodeJS.ProcessEnv, user: object = runner): Promise<Run> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [binPath, ...args], {
      env,
      stdio: ['ignore', 'ignore', 'pipe'],
      ...user,
    });
    tracker.child(child);
    let stderr = '';
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    // Only ends a run that hangs: a CLI that starts a daemon on a busy machine takes a while.
    const timer = setTimeout(() => child.kill('SIGKILL'), 60_000);
    child.once('error', reject);
    child.once('close', (code, signal) => {
      clearTimeout(timer);
      resolve({ code, signal, stderr });
    });
  });
}

/** Hands the home (recursively) to whoever runs coffer. */
function giveToRunner(path: string): void {
  if (!asRoot) return;
  chownSync(path, NOBODY, NOBODY);
  if (statSync(path).isDirectory()) {
    for (const entry of readdirSync(path)) giveToRunner(join(path, entry));
  }
}

/** Back to us with sane modes, so cleanup can remove it. */
function makeOwn(path: string): void {
  chmodSync(path, statSync(path).isDirectory() ? 0o700 : 0o600);
  if (statSync(path).isDirectory())
    for (const entry of readdirSync(path)) makeOwn(join(path, entry));
}

/** A home holding one registered server, written by a daemon that then stopped cleanly. */
async function homeWithData() {
  const home = tracker.home(await makeHome());
  homes.push(home);
  giveToRunner(home);
  const block = await freePortBlock(3);
  // nobody cannot enter root's HOME, where discovery starts daemons (cwd).
  const env = cofferEnv({ home, portRange: block.env, extra: asRoot ? { HOME: tmpdir() } : {} });
  const daemon = spawn(process.execPath, [binPath, 'daemon'], { env, stdio: 'ignore', ...runner });
  tracker.child(daemon);
  const record = await waitFor(() => readDaemonJson(home), 'daemon.json');
  const added = await fetch(`http://127.0.0.1:${record['port'] as number}/api/v1/servers`, {
    method: 'POST',
    headers: {
      authorization: `Bearer ${record['token'] as string}`,
      'content-type': 'application/json',
    },
    body: JSON.stringify({ name: 'keeper', transport: 'stdio', command: 'true' }),
  });
  expect(added.status).toBe(201);
  await terminate(daemon.pid!);
  return { home, env };
}

/** Every byte of the home but its logs and lock: what a failed start must not change. */
function dataDigest(home: string): string {
  const hash = createHash('sha256');
  const data = readdirSync(home).filter(
    (entry) => entry !== 'logs' && !entry.startsWith('daemon.lock'),
  );
  expect(data).toContain('coffer.db');
  for (const name of data.sort()) {
    hash.update(name);
    if (statSync(join(home, name)).isFile()) hash.update(readFileSync(join(home, name)));
  }
  return hash.digest('hex');
}

async function expectServesKeeper(env: NodeJS.ProcessEnv, home: string): Promise<void> {
  const started = await coffer(['start'], env);
  expect(started.code, started.stderr).toBe(0);
  const record = readDaemonJson(home)!;
  const response = await fetch(
    `http://127.0.0.1:${record['port'] as number}/api/v1/servers/keeper`,
    {
      headers: { authorization: `Bearer ${record['token'] as string}` },
    },
  );
  expect(response.status).toBe(200);
}

describe.runIf(process.platform === 'linux')('a home the daemon may not write', () => {
  it('read-only database: refuses with STORE_FAILURE, changes nothing, recovers', async () => {
    const { home, env } = await homeWithData();
    chmodSync(join(home, 'coffer.db'), 0o400);
    const before = dataDigest(home);

    for (const args of [['daemon'], ['start']]) {
      const run = await coffer(args, env);
      expect(run.signal, `coffer ${args[0]} hung`).toBeNull();
      expect(run.code, run.stderr).toBe(1); // STORE_FAILURE
      expect(run.stderr).toContain(
        `Cannot create the Coffer database at ${join(home, 'coffer.db')}`,
      );
      expect(run.stderr).toContain('writable by your user');
      expect(readDaemonJson(home)).toBeUndefined();
    }
    expect(dataDigest(home)).toBe(before);

    chmodSync(join(home, 'coffer.db'), 0o600);
    await expectServesKeeper(env, home);
  });

  it('a COFFER_HOME that is a file, or under one: says so, touches nothing', async () => {
    const dir = tracker.home(await makeHome());
    homes.push(dir);
    const file = join(dir, 'not-a-folder');
    writeFileSync(file, 'mine');
    giveToRunner(dir);
    const block = await freePortBlock(3);
    for (const home of [file, join(file, 'below')]) {
      const env = cofferEnv({ home, portRange: block.env });
      for (const args of [['daemon'], ['start'], ['status'], ['mcp', 'list']]) {
        const run = await coffer(args, env);
        expect(run.signal, `coffer ${args.join(' ')} hung`).toBeNull();
        expect(run.code, run.stderr).toBe(1); // STORE_FAILURE, not an internal error
        expect(run.stderr).toContain(`Cannot use the Coffer home ${home}`);
        expect(run.stderr).toContain('is a file');
        expect(run.stderr).toContain('set COFFER_HOME to a folder');
      }
    }
    expect(readFileSync(file, 'utf8')).toBe('mine');
  });

  // Only root can leave a home owned by someone else, as `sudo coffer start` does.
  it.runIf(asRoot)(
    'home owned by another user: says whose fix it is, changes nothing',
    async () => {
      const { home, env } = await homeWithData();
      chownSync(home, 0, 0);
      chmodSync(home, 0o755);
      const before = dataDigest(home);

      for (const args of [['daemon'], ['start'], ['mcp', 'list']]) {
        const run = await coffer(args, env);
        expect(run.signal, `coffer ${args.join(' ')} hung`).toBeNull();
        expect(run.code, run.stderr).toBe(1); // STORE_FAILURE, not an internal error
        expect(run.stderr).toContain(
          `Cannot use the Coffer home ${home}: your user may not write to it`,
        );
        expect(run.stderr).toContain('sudo chown -R');
        expect(readDaemonJson(home)).toBeUndefined();
      }
      expect(dataDigest(home)).toBe(before);

      giveToRunner(home); // the user follows the advice
      await expectServesKeeper(env, home);
    },
  );
});
