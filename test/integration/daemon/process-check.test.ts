import { spawn } from 'node:child_process';
import { afterEach, describe, expect, it } from 'vitest';
import { isCofferDaemonProcess, isProcessAlive } from '../../../src/discovery/process-check.js';
import { exited, ProcessTracker, spawnFakeDaemon, waitForTitle } from './daemon-harness.js';

const tracker = new ProcessTracker();
afterEach(() => tracker.cleanup());

describe('process checks', () => {
  it('tells live pids from dead ones', async () => {
    expect(isProcessAlive(process.pid)).toBe(true);
    const child = spawn(process.execPath, ['-e', '0'], { stdio: 'ignore' });
    await exited(child);
    expect(isProcessAlive(child.pid!)).toBe(false);
    expect(isProcessAlive(0)).toBe(false);
    expect(isProcessAlive(-1)).toBe(false);
  });

  it('recognises a process titled coffer-daemon, and only that', async () => {
    const fake = tracker.child(spawnFakeDaemon());
    await waitForTitle(fake.pid!);
    expect(isCofferDaemonProcess(fake.pid!)).toBe(true);

    const sleeper = tracker.child(spawn('sleep', ['60'], { stdio: 'ignore' }));
    expect(isCofferDaemonProcess(sleeper.pid!)).toBe(false);
    // An argument that merely mentions the name is not the title.
    const mention = tracker.child(
      spawn(process.execPath, ['-e', 'setTimeout(() => {}, 60000)', 'coffer-daemon'], {
        stdio: 'ignore',
      }),
    );
    expect(isCofferDaemonProcess(mention.pid!)).toBe(false);
    expect(isCofferDaemonProcess(process.pid)).toBe(false);
  });
});
