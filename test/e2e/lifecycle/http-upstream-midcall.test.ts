import { afterEach, describe, expect, it } from 'vitest';
import { createServer, connect, type Server, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';
import { McpError } from '@modelcontextprotocol/sdk/types.js';
import { eventually } from '../../support/eventually.js';
import { startFixtureHttp, type FixtureHttp } from '../../support/fixture-process.js';
import { startDaemon, type RunningDaemon } from '../../support/running-daemon.js';
import { textOf } from '../../support/tool-result.js';

/**
 * A loopback TCP relay in front of the upstream, so the test can swap the upstream
 * behind one address in an instant: cut every open connection and send new ones to
 * another process, already listening. A call that was replayed would reach it.
 */
class SwitchingRelay {
  private readonly sockets = new Set<Socket>();
  private readonly server: Server;

  constructor(private target: number) {
    this.server = createServer((client) => {
      const upstream = connect(this.target, '127.0.0.1');
      for (const socket of [client, upstream]) {
        this.sockets.add(socket);
        socket.on('close', () => this.sockets.delete(socket));
        socket.on('error', () => undefined);
      }
      client.pipe(upstream).pipe(client);
      client.on('close', () => upstream.destroy());
      upstream.on('close', () => client.destroy());
    });
  }

  async listen(): Promise<number> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    return (this.server.address() as AddressInfo).port;
  }

  /** Every open connection dies; new ones go to `port`. */
  switchTo(port: number): void {
    this.target = port;
    for (const socket of this.sockets) socket.destroy();
  }

  close(): Promise<void> {
    for (const socket of this.sockets) socket.destroy();
    return new Promise((resolve) => this.server.close(() => resolve()));
  }
}

describe('an HTTP upstream that goes away mid-call', () => {
  let daemon: RunningDaemon | undefined;
  let relay: SwitchingRelay | undefined;
  const fixtures: FixtureHttp[] = [];

  afterEach(async () => {
    await daemon?.stop();
    daemon = undefined;
    await relay?.close();
    relay = undefined;
    for (const fixture of fixtures.splice(0)) await fixture.close().catch(() => undefined);
  });

  it('fails that call with UPSTREAM_UNAVAILABLE and never replays it on the new upstream', async () => {
    const [old, fresh] = await Promise.all([startFixtureHttp(), startFixtureHttp()]);
    fixtures.push(old, fresh);
    relay = new SwitchingRelay(old.port);
    const port = await relay.listen();
    daemon = await startDaemon();
    await daemon.api('POST', '/servers', {
      name: 'remote',
      transport: 'http',
      url: `http://127.0.0.1:${port}/mcp`,
    });
    const client = await daemon.client();
    await client.callTool({ name: 'remote__echo', arguments: { n: 1 } });

    const pending = client
      .callTool({ name: 'remote__slow_echo', arguments: { delay_ms: 5_000 } })
      .catch((error: unknown) => error);
    await eventually(() => expect(old.stderr()).toContain('slow_echo: request'));
    relay.switchTo(fresh.port);

    const error = await pending;
    expect(error).toBeInstanceOf(McpError);
    expect((error as McpError).data).toMatchObject({ coffer_code: 'UPSTREAM_UNAVAILABLE' });

    // The next call goes to the new upstream on its own; the cut call never reached it.
    const next = await client.callTool({ name: 'remote__echo', arguments: { n: 2 } });
    expect(JSON.parse(textOf(next))).toEqual({ n: 2 });
    const stats = await client.callTool({ name: 'remote__stats', arguments: {} });
    expect(JSON.parse(textOf(stats))).toMatchObject({ toolCalls: 2 });
    expect(fresh.stderr()).not.toContain('slow_echo');
  });
});
