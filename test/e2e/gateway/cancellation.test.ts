import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually } from '../../support/eventually.js';
import {
  startDaemon,
  type RunningDaemon,
  fixtureServer as fixture,
} from '../../support/running-daemon.js';
import { rpcMessages } from '../../fuzz/support/answer-shapes.js';
import { closeSession, mcpHeaders, openSession, postMcp } from '../../fuzz/support/mcp-session.js';

interface Stats {
  toolCalls: number;
  cancelledCalls: number;
}

/**
 * Issue #19 item 1: a client's notifications/cancelled reaches the upstream, and no answer
 * for the cancelled id ever reaches the client; the POST that carried the call ends.
 */
describe.each(['/mcp', '/servers/fx/mcp'])('cancelling a call on %s', (path) => {
  let daemon: RunningDaemon;
  let session: string;
  const tool = (name: string): string => (path === '/mcp' ? `fx__${name}` : name);
  let nextId = 100;

  beforeAll(async () => {
    daemon = await startDaemon();
    const added = await daemon.api('POST', '/servers', {
      name: 'fx',
      transport: 'stdio',
      command: process.execPath,
      args: [fixture],
    });
    expect(added.status).toBe(201);
    session = await openSession(daemon, path);
  });

  afterAll(async () => {
    if (session !== undefined) await closeSession(daemon, path, session);
    await daemon?.stop();
  });

  const post = (message: object) =>
    postMcp(daemon, path, JSON.stringify(message), mcpHeaders(daemon, session));
  const call = (id: number, name: string, args: object = {}) => ({
    jsonrpc: '2.0',
    id,
    method: 'tools/call',
    params: { name: tool(name), arguments: args },
  });
  const cancel = (id: number) => ({
    jsonrpc: '2.0',
    method: 'notifications/cancelled',
    params: { requestId: id, reason: 'test' },
  });

  /** The upstream's own counters; the stats call itself counts as one tool call. */
  async function stats(): Promise<Stats> {
    const answer = await post(call(nextId++, 'stats'));
    const [message] = rpcMessages(answer) as [{ result: { content: [{ text: string }] } }];
    const counters = JSON.parse(message.result.content[0].text) as Stats;
    return { ...counters, toolCalls: counters.toolCalls - 1 };
  }

  it.each([
    ['hang', {}],
    ['slow_echo', { delay_ms: 3_000 }],
  ] as const)(
    '%s: the cancel reaches the upstream, and no answer comes back',
    async (name, args) => {
      const before = await stats();
      const pending = post(call(12, name, args));
      // The call reached the upstream before it is cancelled.
      await eventually(async () =>
        expect((await stats()).toolCalls).toBeGreaterThan(before.toolCalls),
      );
      const cancelled = await post(cancel(12));
      expect(cancelled.status).toBe(202);
      const ended = await pending;
      expect(ended.status).toBe(200);
      expect(rpcMessages(ended).filter((m) => (m as { id?: unknown }).id === 12)).toEqual([]);
      await eventually(async () =>
        expect((await stats()).cancelledCalls).toBeGreaterThan(before.cancelledCalls),
      );
    },
  );

  it('a call cancelled in the same batch gets no answer; the others do', async () => {
    const batched = await postMcp(
      daemon,
      path,
      JSON.stringify([call(21, 'hang'), cancel(21), { jsonrpc: '2.0', id: 22, method: 'ping' }]),
      mcpHeaders(daemon, session),
    );
    expect(batched.status).toBe(200);
    expect(rpcMessages(batched)).toEqual([{ jsonrpc: '2.0', id: 22, result: {} }]);
  });
});
