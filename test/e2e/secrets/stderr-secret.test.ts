import { readFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { LoggingMessageNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  repoRoot,
  startDaemon,
  type RunningDaemon,
  fixtureServer as FIXTURE,
} from '../../support/running-daemon.js';
import { upstreamLog } from '../../support/upstream-log.js';
import { filesUnder, runCoffer } from './run-coffer.js';

/** Distinct and unlikely anywhere by chance, so a hit is a leak. */
const SECRET = `tok-told-${Math.random().toString(36).slice(2)}-K2`;
const TELLER = join(repoRoot, 'test/fixtures/telling-server.mjs');
const MARKER = '[redacted: secret TELL_TOKEN]';

describe('a stdio server that prints its own secret on stderr', () => {
  let daemon: RunningDaemon;

  beforeAll(async () => {
    daemon = await startDaemon({ COFFER_KEYCHAIN: 'file' });
    const launch = ['node', TELLER, 'TELL_TOKEN', FIXTURE];
    const added = await runCoffer(
      daemon.env,
      ['mcp', 'add', 'teller', '--secret-env', 'TELL_TOKEN', '--from-stdin', '--', ...launch],
      `${SECRET}\n`,
    );
    expect(added.code, added.stderr).toBe(0);
  });
  afterAll(() => daemon?.stop());

  it('leaves it out of logs/upstream-<name>.log, and the lines otherwise as written', async () => {
    const client = await daemon.client();
    expect((await client.listTools()).tools.map((tool) => tool.name)).toContain('teller__echo');
    // The last of the lines that tell it; stderr may trail the answers on stdout.
    await expect.poll(() => upstreamLog(daemon.home, 'teller')).toContain('(end of split)\n');
    const log = upstreamLog(daemon.home, 'teller');
    expect(log).toContain(`starting with TELL_TOKEN=${MARKER}\n`);
    expect(log).toContain(`split token: ${MARKER} (end of split)\n`);
    const leaking = filesUnder(daemon.home).filter(
      (file) => basename(file) !== 'secrets.json' && readFileSync(file).includes(SECRET),
    );
    expect(leaking).toEqual([]);
  });
});

describe('a stdio server that sends its own secret in an MCP log message', () => {
  let daemon: RunningDaemon;
  const LOGGER = join(repoRoot, 'test/fixtures/logging-secret-server.mjs');

  beforeAll(async () => {
    daemon = await startDaemon({ COFFER_KEYCHAIN: 'file' });
    const added = await runCoffer(
      daemon.env,
      [
        'mcp',
        'add',
        'logger',
        '--secret-env',
        'TELL_TOKEN',
        '--from-stdin',
        '--',
        'node',
        LOGGER,
        'TELL_TOKEN',
      ],
      `${SECRET}\n`,
    );
    expect(added.code, added.stderr).toBe(0);
  });
  afterAll(() => daemon?.stop());

  it('leaves it out of logs/upstream-<name>.log', async () => {
    const client = await daemon.client();
    await client.callTool({ name: 'logger__tell', arguments: {} });
    await expect.poll(() => upstreamLog(daemon.home, 'logger')).toContain('connected with');
    expect(upstreamLog(daemon.home, 'logger')).toContain(
      'connected with TELL_TOKEN=[redacted: secret logger/env/TELL_TOKEN]',
    );
    const leaking = filesUnder(daemon.home).filter(
      (file) => basename(file) !== 'secrets.json' && readFileSync(file).includes(SECRET),
    );
    expect(leaking).toEqual([]);
  });

  it('leaves it out of the log message an agent that asked for logs receives', async () => {
    const client = await daemon.client();
    const lines: unknown[] = [];
    client.setNotificationHandler(LoggingMessageNotificationSchema, (message) => {
      lines.push(message.params.data);
    });
    await client.setLoggingLevel('info');
    await client.callTool({ name: 'logger__tell', arguments: {} });
    await expect.poll(() => lines.length).toBeGreaterThan(0);
    expect(lines).toEqual(['connected with TELL_TOKEN=[redacted: secret logger/env/TELL_TOKEN]']);
  });
});
