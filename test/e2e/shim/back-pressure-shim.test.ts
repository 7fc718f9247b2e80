import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { eventually } from '../../support/eventually.js';
import { shimSuite } from './support/shim-suite.js';

/**
 * A client that writes calls and does not read their answers (yet): the shim and the
 * daemon stop reading from it instead of holding everything in memory, and once it reads
 * again every answer comes, in full. Without back-pressure this flood took the shim to
 * 700 MB and the daemon to 900 MB (3,000 calls of 90 KB).
 */

// Results uncut: each answer is as large as its call, as a big file read would be.
const { shim, home } = shimSuite({ fixture: true, env: { COFFER_RESULT_BUDGET_TOKENS: 'off' } });

const CALLS = 256;
const MESSAGE = 'x'.repeat(512 * 1024);

function rssMiB(pid: number, field: 'VmRSS' | 'VmHWM'): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kib = new RegExp(`${field}:\\s+(\\d+)`).exec(status)?.[1];
  return Number(kib) / 1024;
}

describe('coffer shim: a client that does not read', () => {
  it('is not read from while its answers wait, and gets every answer once it reads', async () => {
    const client = shim();
    await client.initialize();
    const daemonPid = home().daemonFile()!.pid;
    const daemonBefore = rssMiB(daemonPid, 'VmRSS');
    const shimBefore = rssMiB(client.pid, 'VmRSS');

    client.child.stdout!.pause();
    const answers = Array.from({ length: CALLS }, (_, index) =>
      client.request('tools/call', { name: 'fx__echo', arguments: { message: MESSAGE, index } }),
    );
    // Both holds: the shim waits for the client to read, the daemon for the shim.
    const shimLog = join(home().home, 'logs', 'shim.log');
    await eventually(() => {
      const log = readFileSync(shimLog, 'utf8');
      expect(log).toContain('the client is reading its stdout slower');
      expect(log).toContain("the daemon is taking the client's lines slower");
    });
    const written = (CALLS * MESSAGE.length) / 1024 / 1024;
    expect(rssMiB(client.pid, 'VmHWM') - shimBefore).toBeLessThan(written / 2);
    expect(rssMiB(daemonPid, 'VmRSS') - daemonBefore).toBeLessThan(written / 2);

    client.child.stdout!.resume();
    const results = await Promise.all(answers);
    for (const answer of results) {
      expect(answer.error).toBeUndefined();
      expect(JSON.stringify(answer.result)).toContain(MESSAGE);
    }
  });
});
