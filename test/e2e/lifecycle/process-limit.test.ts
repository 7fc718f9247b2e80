import { afterEach, describe, expect, it } from 'vitest';
import { readdirSync, readFileSync } from 'node:fs';
import { randomUUID } from 'node:crypto';
import { McpError } from '@modelcontextprotocol/sdk/types.js';
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

describe.runIf(process.platform === 'linux')('the per-server process limit', () => {
  let daemon: RunningDaemon | undefined;

  afterEach(async () => {
    await daemon?.stop();
    daemon = undefined;
  });

  it('refuses a process past the limit with a clear error, and frees a slot when a session ends', async () => {
    const marker = `capped-${randomUUID()}`;
    daemon = await startDaemon({ COFFER_MAX_PROCESSES_PER_SERVER: '2' });
    await daemon.api('POST', '/servers', {
      name: 'capped',
      transport: 'stdio',
      command: process.execPath,
      args: [fixtureServer, '--name', marker],
    });
    const [first, second, third] = await Promise.all([
      daemon.client({ name: 'first' }),
      daemon.client({ name: 'second' }),
      daemon.client({ name: 'third' }),
    ]);
    await first.callTool({ name: 'capped__echo', arguments: {} });
    await second.callTool({ name: 'capped__echo', arguments: {} });
    expect(pidsWith(marker)).toHaveLength(2);

    const refused = await third
      .callTool({ name: 'capped__echo', arguments: {} })
      .catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(McpError);
    expect((refused as McpError).code).toBe(-32012);
    expect((refused as McpError).data).toMatchObject({
      coffer_code: 'PROCESS_LIMIT_REACHED',
      server: 'capped',
      limit: 2,
    });
    expect((refused as McpError).message).toContain('COFFER_MAX_PROCESSES_PER_SERVER');
    expect(pidsWith(marker)).toHaveLength(2);

    // The admin side counts too: testing the connection needs a third process.
    const tested = await daemon.api('POST', '/servers/capped/test');
    expect(tested.body).toMatchObject({ ok: false, error: { code: 'PROCESS_LIMIT_REACHED' } });

    // One session ends: its process goes, and its slot serves the waiting client.
    const transport = first.transport as unknown as { terminateSession(): Promise<void> };
    await transport.terminateSession();
    await eventually(async () => {
      const result = await third.callTool({ name: 'capped__echo', arguments: { ok: true } });
      expect(result.isError).not.toBe(true);
    }, 20_000);
    expect(pidsWith(marker)).toHaveLength(2);
  });
});
