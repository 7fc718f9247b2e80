import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  startDaemon,
  type RunningDaemon,
  fixtureServer as fixture,
} from '../../support/running-daemon.js';
import { rpcMessages } from '../../fuzz/support/answer-shapes.js';
import { closeSession, mcpHeaders, openSession, postMcp } from '../../fuzz/support/mcp-session.js';

/**
 * Issue #19 item 2: ids and duplicate keys on /mcp (docs/SECURITY.md, "Hostile input"). Every POST gets either a JSON-RPC
 * answer with its id or a clear 4xx, never a 200 with nothing in it.
 */
describe.each(['/mcp', '/servers/fx/mcp'])('request ids and duplicate keys on %s', (path) => {
  let daemon: RunningDaemon;
  let session: string;

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

  it.each(['-1e308', '1.5', '9007199254740993', '1e400', 'true', 'null', '{}'])(
    'refuses the id %s as an Invalid Request (HTTP 400, id null)',
    async (id) => {
      const answer = await postMcp(
        daemon,
        path,
        `{"jsonrpc":"2.0","id":${id},"method":"ping"}`,
        mcpHeaders(daemon, session),
      );
      expect(answer.status, answer.body).toBe(400);
      expect(JSON.parse(answer.body)).toEqual({
        jsonrpc: '2.0',
        id: null,
        error: { code: -32600, message: expect.stringContaining('id') },
      });
    },
  );

  it.each(['9007199254740991', '-9007199254740991', '0', '"a string"', '""'])(
    'answers the id %s as given',
    async (id) => {
      const answer = await postMcp(
        daemon,
        path,
        `{"jsonrpc":"2.0","id":${id},"method":"ping"}`,
        mcpHeaders(daemon, session),
      );
      expect(answer.status, answer.body).toBe(200);
      expect(rpcMessages(answer)).toEqual([{ jsonrpc: '2.0', id: JSON.parse(id), result: {} }]);
    },
  );

  it('takes the last of duplicate keys (as JSON.parse), and answers', async () => {
    // The single-server endpoint uses the upstream's own names.
    const echo = path === '/mcp' ? 'fx__echo' : 'echo';
    const answer = await postMcp(
      daemon,
      path,
      `{"jsonrpc":"2.0","id":3,"id":4,"method":"ping","method":"tools/call","params":{"name":"nope","name":"${echo}","arguments":{"text":"first","text":"last"}}}`,
      mcpHeaders(daemon, session),
    );
    expect(answer.status, answer.body).toBe(200);
    const [message] = rpcMessages(answer) as [{ id: unknown; result: unknown }];
    expect(message.id).toBe(4);
    const echoed = JSON.stringify(message.result);
    expect(echoed).toContain('last');
    expect(echoed).not.toContain('first');
  });
});
