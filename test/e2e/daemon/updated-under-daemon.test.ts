import { execFile } from 'node:child_process';
import { cpSync, mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  assertBuilt,
  ProcessTracker,
  readDaemonJson,
  repoRoot,
} from '../../integration/daemon/daemon-harness.js';

const run = promisify(execFile);

/**
 * Coffer updated (or rebuilt) while its daemon runs: the daemon keeps the code it started
 * with, and `coffer status` and `coffer doctor` say so, with the restart, until it is
 * restarted. An install of its own (a copy of bin/ and dist/) is updated here, so the
 * repository's build, which other tests run from, is never touched.
 */
describe('a daemon whose Coffer was updated under it', () => {
  const tracker = new ProcessTracker();
  let install: string;
  let env: NodeJS.ProcessEnv;

  const copyBuild = () =>
    cpSync(join(repoRoot, 'dist'), join(install, 'dist'), { recursive: true });
  const coffer = async (...args: string[]) => {
    const result = await run(process.execPath, [join(install, 'bin', 'coffer.js'), ...args], {
      env,
      timeout: 60_000,
    }).catch((error: { code: number; stdout: string; stderr: string }) => error);
    return {
      code: 'code' in result ? result.code : 0,
      stdout: result.stdout,
      stderr: result.stderr,
    };
  };
  const outdated = async () => {
    const doctor = await coffer('doctor', '--json');
    const report = JSON.parse(doctor.stdout) as { findings: { code: string }[] };
    return report.findings.some((finding) => finding.code === 'DAEMON_OUTDATED');
  };

  beforeAll(async () => {
    assertBuilt();
    install = mkdtempSync(join(tmpdir(), 'coffer-install-'));
    cpSync(join(repoRoot, 'bin'), join(install, 'bin'), { recursive: true });
    cpSync(join(repoRoot, 'package.json'), join(install, 'package.json'));
    symlinkSync(join(repoRoot, 'node_modules'), join(install, 'node_modules'), 'dir');
    copyBuild();
    ({ env } = await tracker.userEnv());
  });

  afterAll(async () => {
    await tracker.cleanup();
    rmSync(install, { recursive: true, force: true });
  });

  it('says nothing before, then the restart it needs, and nothing after the restart', async () => {
    expect((await coffer('start')).code).toBe(0);
    const firstPid = readDaemonJson(env['COFFER_HOME']!)?.['pid'];
    expect((await coffer('status')).stdout).not.toContain('updated or rebuilt');
    expect(await outdated()).toBe(false);

    rmSync(join(install, 'dist'), { recursive: true });
    copyBuild();
    const status = await coffer('status');
    expect(status.stdout).toContain(
      'note:     Coffer was updated or rebuilt since this daemon started; restart it to run the new one: coffer stop',
    );
    expect(JSON.parse((await coffer('status', '--json')).stdout)).toMatchObject({
      code_replaced: true,
    });
    expect(await outdated()).toBe(true);

    expect((await coffer('stop')).code).toBe(0);
    expect((await coffer('start')).code).toBe(0);
    expect(readDaemonJson(env['COFFER_HOME']!)?.['pid']).not.toBe(firstPid);
    expect((await coffer('status')).stdout).not.toContain('updated or rebuilt');
    expect(await outdated()).toBe(false);
    expect((await coffer('stop')).code).toBe(0);
  });
});
