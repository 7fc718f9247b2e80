import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { isCofferDaemonProcess, isProcessAlive } from '../../../src/discovery/process-check.js';
import { eventually } from '../../support/eventually.js';
import {
  assertBuilt,
  daemonPidsLogged,
  ProcessTracker,
  readDaemonJson,
  runCoffer,
} from '../../integration/daemon/daemon-harness.js';

/**
 * daemon.json deleted under a running daemon (a clean-up script, a user tidying the home):
 * the daemon writes it again, so clients keep finding it; and if a client was quicker and
 * started a second daemon on the same home, the first one steps aside. Either way one
 * daemon serves the home and `coffer stop` leaves none behind.
 */
const tracker = new ProcessTracker();

beforeAll(() => assertBuilt());
afterEach(() => tracker.cleanup());

async function runningDaemon() {
  const { home, env } = await tracker.userEnv();
  const started = await runCoffer(['start'], env);
  expect(started.code, started.stderr).toBe(0);
  const pid = readDaemonJson(home)?.['pid'] as number;
  return { home, env, pid };
}

const liveDaemons = (home: string): number[] =>
  daemonPidsLogged(home).filter((pid) => isProcessAlive(pid) && isCofferDaemonProcess(pid));

describe('daemon.json removed while the daemon runs', () => {
  it('is written again by the daemon, which clients then find as before', async () => {
    const { home, env, pid } = await runningDaemon();
    rmSync(join(home, 'daemon.json'));
    await eventually(() => expect(readDaemonJson(home)?.['pid']).toBe(pid));
    const status = await runCoffer(['status', '--json'], env);
    expect(JSON.parse(status.stdout)).toMatchObject({ running: true, pid });
    expect(liveDaemons(home)).toEqual([pid]);
    expect((await runCoffer(['stop'], env)).code).toBe(0);
    await eventually(() => expect(liveDaemons(home)).toEqual([]));
  });

  it('leaves one daemon, named in the file, when a client started another meanwhile', async () => {
    const { home, env } = await runningDaemon();
    rmSync(join(home, 'daemon.json'));
    // At once: unless the first daemon has already written its file again, discovery
    // finds none and starts a second daemon; the first then sees a live daemon named in
    // the file and steps aside (checkDaemonFile's unit test pins that branch down).
    const again = await runCoffer(['start'], env);
    expect(again.code, again.stderr).toBe(0);
    await eventually(() => {
      const named = readDaemonJson(home)?.['pid'];
      expect(liveDaemons(home)).toEqual([named]);
    });
    expect((await runCoffer(['stop'], env)).code).toBe(0);
    await eventually(() => expect(liveDaemons(home)).toEqual([]));
  });
});
