import { afterEach, describe, expect, it } from 'vitest';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { randomUUID } from 'node:crypto';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { eventually } from '../../support/eventually.js';
import { fixtureServer } from '../../support/running-daemon.js';
import { startDaemon, type RunningDaemon } from '../../support/running-daemon.js';

/** Pids of live processes whose command line contains `marker` (Linux /proc). */
function pidsWith(marker: string): number[] {
  return readdirSync('/proc')
    .filter((name) => /^\d+$/.test(name))
    .flatMap((name) => {
      try {
        return readFileSync(`/proc/${name}/cmdline`, 'utf8').includes(marker) ? [Number(name)] : [];
      } catch {
        return [];
      }
    });
}

/** The reaper's log lines, by reason. */
function reapedSessions(home: string): { idle: number; vanished: number } {
  const lines = readFileSync(join(home, 'logs', 'coffer.log'), 'utf8').split('\n');
  const count = (msg: string) => lines.filter((line) => line.includes(`"msg":"${msg}"`)).length;
  return {
    idle: count('closing an idle session'),
    vanished: count('closing a session whose client vanished'),
  };
}

const SESSIONS = 200;
/**
 * Sessions opened at once: enough to overlap, few enough for a 2-core machine. (Twenty
 * node processes starting together starve every event loop for seconds, long enough to
 * make a short idle limit close a session between its client's own requests.)
 */
const WAVE = 10;

describe.runIf(process.platform === 'linux')('session reaping', () => {
  let daemon: RunningDaemon | undefined;
  const idleClients: Client[] = [];

  afterEach(async () => {
    await Promise.allSettled(idleClients.splice(0).map((client) => client.close()));
    await daemon?.stop();
    daemon = undefined;
  });

  it(
    `${SESSIONS} sessions opened and abandoned: the upstream processes return to the baseline`,
    { timeout: 480_000 },
    async () => {
      const marker = `reaped-${randomUUID()}`;
      daemon = await startDaemon({
        COFFER_SESSION_IDLE_MS: '15000',
        COFFER_SESSION_GRACE_MS: '500',
        // Up to half the sessions sit idle at once, each with its process: not the cap's test.
        COFFER_MAX_PROCESSES_PER_SERVER: String(SESSIONS * 2),
      });
      await daemon.api('POST', '/servers', {
        name: 'per_session',
        transport: 'stdio',
        command: process.execPath,
        args: [fixtureServer, '--name', marker],
      });
      const baseline = pidsWith(marker).length;
      let peak = 0;
      for (let first = 0; first < SESSIONS; first += WAVE) {
        await Promise.all(
          Array.from({ length: WAVE }, async (_, offset) => {
            const client = await daemon!.client({ name: `agent-${first + offset}` });
            await client.callTool({ name: 'per_session__echo', arguments: { i: first + offset } });
            // Half vanish like a SIGKILLed shim (GET stream gone, no DELETE); half stay
            // connected and go quiet (the idle limit).
            if ((first + offset) % 2 === 0) await client.close();
            else idleClients.push(client);
          }),
        );
        peak = Math.max(peak, pidsWith(marker).length);
      }
      expect(peak).toBeGreaterThan(baseline); // each session really had its own upstream
      await eventually(() => expect(pidsWith(marker).length).toBe(baseline), 60_000);
      const status = await daemon.api('GET', '/status');
      expect(status.body.sessions).toBe(0);
      // The daemon's log file is written in batches (25 ms): the last reaper lines may
      // still be on their way when the last process has gone.
      const home = daemon.home;
      const reaped = await eventually(() => {
        const counted = reapedSessions(home);
        expect(counted.idle + counted.vanished).toBe(SESSIONS);
        return counted;
      }, 10_000);
      expect(reaped.vanished).toBeGreaterThan(0);
      expect(reaped.idle).toBeGreaterThan(0);
    },
  );
});
