import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { cofferPaths } from '../../../src/config/home.js';
import { ensureDaemon } from '../../../src/discovery/index.js';
import { cofferEnv, freePortBlock, makeHome, ProcessTracker } from './daemon-harness.js';

/**
 * The daemon renames itself (`process.title`), which overwrites /proc/<pid>/cmdline, so its
 * node flags cannot be read from outside. A stand-in for bin/coffer.js reports its own
 * `process.execArgv` as its last stdio line and exits; ensureDaemon quotes that line as the
 * reason the daemon did not start.
 */
const tracker = new ProcessTracker();
afterEach(() => tracker.cleanup());

const REPORT_EXEC_ARGV = [
  'process.stdout.write(`coffer: node flags ${JSON.stringify(process.execArgv)}\\n`);',
  'process.exit(3);',
].join('\n');

describe('a daemon spawned by ensureDaemon', () => {
  it('runs node with a 16 MB young generation from the start (--min-semi-space-size=16)', async () => {
    const home = tracker.home(await makeHome());
    const block = await freePortBlock(3);
    const binaryPath = join(home, 'report-exec-argv.mjs');
    writeFileSync(binaryPath, REPORT_EXEC_ARGV);

    const started = ensureDaemon(cofferPaths(home), {
      binaryPath,
      env: cofferEnv({ home, portRange: block.env }),
      timeoutMs: 45_000,
    });

    await expect(started).rejects.toMatchObject({
      code: 'DAEMON_UNAVAILABLE',
      message: expect.stringContaining('node flags ["--min-semi-space-size=16"]'),
    });
  });
});
