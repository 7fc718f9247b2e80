import { join } from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { eventually } from '../../support/eventually.js';
import { startDaemon, type RunningDaemon } from '../../support/running-daemon.js';
import { registerFixture } from './fault-support.js';
import { isAlive } from '../../integration/shim/support/processes.js';

const CHAINS = 10;
const KEYS_PER_CHAIN = 4;
const TOGGLES_PER_CHAIN = 20; // 200 in all
const KILL_AFTER_ACKS = 100;

/** What a key saw: the last value the daemon acknowledged, and the one whose answer is pending. */
interface KeyTrace {
  acked: boolean | undefined;
  inFlight: boolean | undefined;
}

/**
 * SIGKILL while 200 preference toggles arrive, ten at a time: no shutdown code runs, so
 * only SQLite's own guarantees (WAL, one transaction per toggle) stand between the user
 * and a lost or torn choice. After a restart the database must pass integrity_check and
 * hold every toggle the daemon acknowledged. Ten chains run at once, each toggling its own
 * four keys in turn (off, on, off, …), one request at a time: so when the kill lands, each
 * chain has at most one key whose fate is open (its request may have committed unanswered),
 * and every other key must hold exactly its last acknowledged value.
 */
describe.runIf(process.platform === 'linux')('daemon SIGKILLed during preference toggles', () => {
  let daemon: RunningDaemon | undefined;

  afterEach(async () => {
    await daemon?.stop();
    daemon = undefined;
  });

  it('restarts onto an intact database holding every acknowledged toggle', async () => {
    const first = await startDaemon();
    const { home } = first;
    await registerFixture(first, 'prefs');
    const traces = new Map<string, KeyTrace>();
    let acks = 0;
    let killed = false;
    const kill = (): void => {
      if (killed) return;
      killed = true;
      process.kill(first.pid, 'SIGKILL');
    };

    const toggle = async (key: string, enabled: boolean): Promise<boolean> => {
      const response = await fetch(`${first.baseUrl}/api/v1/servers/prefs/capabilities`, {
        method: 'POST',
        headers: { authorization: `Bearer ${first.token}`, 'content-type': 'application/json' },
        body: JSON.stringify({ type: 'tool', keys: [key], enabled }),
      });
      await response.text();
      return response.status === 200;
    };
    const chain = async (chainIndex: number): Promise<void> => {
      const keys = Array.from({ length: KEYS_PER_CHAIN }, (_, k) => `toggled_${chainIndex}_${k}`);
      for (const key of keys) traces.set(key, { acked: undefined, inFlight: undefined });
      for (let step = 0; step < TOGGLES_PER_CHAIN; step += 1) {
        const key = keys[step % KEYS_PER_CHAIN]!;
        const trace = traces.get(key)!;
        const enabled = Math.floor(step / KEYS_PER_CHAIN) % 2 === 1; // each toggle flips its key
        trace.inFlight = enabled;
        const ok = await toggle(key, enabled).catch(() => false);
        if (!ok) return; // the daemon is gone: this toggle was never acknowledged
        trace.acked = enabled;
        trace.inFlight = undefined;
        acks += 1;
        if (acks >= KILL_AFTER_ACKS) kill();
      }
    };
    await Promise.all(Array.from({ length: CHAINS }, (_, index) => chain(index)));
    kill(); // in case every toggle finished first on a fast machine
    expect(acks).toBeGreaterThanOrEqual(KILL_AFTER_ACKS);
    expect(acks).toBeLessThan(CHAINS * TOGGLES_PER_CHAIN);
    await eventually(() => expect(isAlive(first.pid)).toBe(false));

    daemon = await startDaemon({}, home);
    // The restarted daemon serves, and can write again.
    expect(
      (
        await daemon.api('POST', '/servers/prefs/capabilities', {
          type: 'tool',
          keys: ['after_restart'],
          enabled: false,
        })
      ).status,
    ).toBe(200);

    const db = new BetterSqlite3(join(home, 'coffer.db'), { readonly: true });
    try {
      expect(db.pragma('integrity_check', { simple: true })).toBe('ok');
      const rows = db
        .prepare(
          `SELECT p.capability_key AS key, p.enabled AS enabled
             FROM mcp_capability_preferences p JOIN mcp_servers s ON s.id = p.resource_id
            WHERE s.name = 'prefs' AND p.capability_type = 'tool'`,
        )
        .all() as { key: string; enabled: number }[];
      const stored = new Map(rows.map((row) => [row.key, row.enabled === 1]));
      let exact = 0;
      for (const [key, trace] of traces) {
        const found = stored.get(key);
        if (trace.inFlight === undefined) {
          exact += 1;
          expect(found, `${key}: acknowledged ${String(trace.acked)}`).toBe(trace.acked);
        } else {
          expect([trace.acked, trace.inFlight], `${key}: stored ${String(found)}`).toContain(found);
        }
      }
      // At most one open key per chain: the check above is exact for the rest.
      expect(exact).toBeGreaterThanOrEqual(CHAINS * (KEYS_PER_CHAIN - 1));
      expect(stored.get('after_restart')).toBe(false);
    } finally {
      db.close();
    }
  });
});
