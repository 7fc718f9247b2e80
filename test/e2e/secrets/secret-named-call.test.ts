import { readFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  startDaemon,
  type RunningDaemon,
  fixtureServer as FIXTURE,
} from '../../support/running-daemon.js';
import { filesUnder, runCoffer } from './run-coffer.js';

/** Distinct and unlikely anywhere by chance, so a hit is a leak. */
const SECRET = `tok-named-${Math.random().toString(36).slice(2)}-W4`;
const CALLS = new Set(['tools/call', 'prompts/get', 'resources/read']);

interface Row {
  readonly action: string;
}

describe('a name a client chooses that holds a stored secret is never logged or stored', () => {
  let daemon: RunningDaemon;

  beforeAll(async () => {
    daemon = await startDaemon({ COFFER_KEYCHAIN: 'file', COFFER_LOG_LEVEL: 'debug' });
    const added = await runCoffer(
      daemon.env,
      ['mcp', 'add', 'vault', '--secret-env', 'VAULT_TOKEN', '--from-stdin', '--', 'node', FIXTURE],
      `${SECRET}\n`,
    );
    expect(added.code, added.stderr).toBe(0);
  });
  afterAll(() => daemon?.stop());

  it('in coffer.log, the activity rows and every other file', async () => {
    // The client's own name holds it too: it is stored with each row.
    const client = await daemon.client({ name: `agent ${SECRET}` });
    const calls = [
      client.callTool({ name: SECRET, arguments: {} }),
      client.callTool({ name: `vault__${SECRET}`, arguments: {} }),
      client.callTool({ name: `${SECRET}__echo`, arguments: {} }),
      client.getPrompt({ name: `vault__${SECRET}` }),
      client.readResource({ uri: `coffer://vault/${SECRET}` }),
    ];
    await Promise.allSettled(calls);
    const rows = async () => (await daemon.api('GET', '/activity')).body.activity as Row[];
    const callRows = async () => (await rows()).filter((row) => CALLS.has(row.action));
    await expect.poll(async () => (await callRows()).length).toBe(calls.length);
    const activity = JSON.stringify(await rows());
    expect(activity).toContain('[redacted: secret vault/env/VAULT_TOKEN]');
    expect(activity).not.toContain(SECRET);
    const listed = await runCoffer(daemon.env, ['activity', '--json']);
    expect(listed.stdout).not.toContain(SECRET);
    // The five failures' lines are written too (once the secrets are read) before the look.
    const log = () => readFileSync(join(daemon.home, 'logs', 'coffer.log'), 'utf8');
    await expect.poll(() => log().match(/failed: Unknown (tool|prompt)/g)?.length).toBe(4);
    expect(log()).toContain('failed: Unknown tool \\"[redacted: secret vault/env/VAULT_TOKEN]\\"');
    const leaking = filesUnder(daemon.home).filter(
      (file) => basename(file) !== 'secrets.json' && readFileSync(file).includes(SECRET),
    );
    expect(leaking).toEqual([]);
  });
});
