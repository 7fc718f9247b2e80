import { afterEach, describe, expect, it } from 'vitest';
import { startFixtureHttp, type FixtureHttp } from '../../support/fixture-process.js';
import { freeRestartPort } from '../../support/free-port-range.js';
import { startDaemon, type RunningDaemon } from '../../support/running-daemon.js';
import { textOf } from '../../support/tool-result.js';

/**
 * A Streamable HTTP upstream that restarts forgets every session and answers 404 to the
 * old session id (DESIGN.md §1). Coffer must re-initialize and go on, on the session path
 * and on the admin path alike, without the user doing anything (ADR-004 update).
 */

/**
 * Stops the fixture, then starts a new one on the same port. SIGTERM ends its streams
 * cleanly, so Coffer's connection looks alive and only the 404 tells; SIGKILL cuts them.
 */
async function restart(fixture: FixtureHttp, how: 'SIGTERM' | 'SIGKILL'): Promise<FixtureHttp> {
  if (how === 'SIGTERM') await fixture.close();
  else process.kill(fixture.pid, 'SIGKILL');
  await fixture.exited;
  return startFixtureHttp(['--http', String(fixture.port)]);
}

describe('an HTTP upstream restarted between two calls', () => {
  let daemon: RunningDaemon | undefined;
  const fixtures: FixtureHttp[] = [];

  afterEach(async () => {
    await daemon?.stop();
    daemon = undefined;
    for (const fixture of fixtures.splice(0)) await fixture.close().catch(() => undefined);
  });

  async function setUp(): Promise<{ daemon: RunningDaemon; first: FixtureHttp }> {
    const first = await startFixtureHttp(['--http', String(await freeRestartPort())]);
    fixtures.push(first);
    daemon = await startDaemon();
    const added = await daemon.api('POST', '/servers', {
      name: 'remote',
      transport: 'http',
      url: first.url,
    });
    expect(added.status).toBe(201);
    return { daemon, first };
  }

  it.each(['SIGTERM', 'SIGKILL'] as const)(
    'answers the second call through /mcp, sent once to the new upstream (%s)',
    async (how) => {
      const { daemon, first } = await setUp();
      const client = await daemon.client();
      const before = await client.callTool({ name: 'remote__echo', arguments: { n: 1 } });
      expect(JSON.parse(textOf(before))).toEqual({ n: 1 });

      const second = await restart(first, how);
      fixtures.push(second);

      const after = await client.callTool({ name: 'remote__echo', arguments: { n: 2 } });
      expect(JSON.parse(textOf(after))).toEqual({ n: 2 });
      // The new process saw the echo once, then this stats call: nothing was sent twice.
      const stats = await client.callTool({ name: 'remote__stats', arguments: {} });
      expect(JSON.parse(textOf(stats))).toMatchObject({ toolCalls: 2, sessions: 1 });
    },
  );

  it('lists the tools again through the admin API and tests the connection', async () => {
    const { daemon, first } = await setUp();
    const listed = await daemon.api('GET', '/servers/remote/capabilities');
    expect(listed.status).toBe(200);
    expect(listed.body.tools.status).toBe('ok');

    const second = await restart(first, 'SIGTERM');
    fixtures.push(second);

    const again = await daemon.api('GET', '/servers/remote/capabilities');
    expect(again.status).toBe(200);
    for (const kind of ['tools', 'prompts', 'resources'])
      expect({ kind, status: again.body[kind].status }).toEqual({ kind, status: 'ok' });
    const keys = (again.body.tools.items as { key: string; definition: unknown }[])
      .filter((item) => item.definition !== null)
      .map((item) => item.key);
    expect(keys).toContain('echo');
    const tested = await daemon.api('POST', '/servers/remote/test');
    expect(tested.body).toMatchObject({ ok: true });
  });
});
