import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addFixture, startDaemon, type RunningDaemon } from '../../support/running-daemon.js';
import { modernEnvelope } from '../../support/modern-post.js';
import { rawRequest } from '../../fuzz/support/raw-request.js';

const META = JSON.stringify(modernEnvelope('invalid requests'));

/**
 * A 2026-07-28 request over HTTP has no session, but its JSON-RPC envelope is held to the
 * same rules as a 2025 one (docs/SECURITY.md, "Hostile input"): a bad id, a foreign key or
 * another jsonrpc version is an Invalid Request, -32600 with id null and HTTP 400, and
 * reaches no upstream.
 */
describe.each(['/mcp', '/servers/fx/mcp'])('2026-07-28 envelopes on %s', (path) => {
  let daemon: RunningDaemon;
  const tool = path === '/mcp' ? 'fx__echo' : 'echo';

  beforeAll(async () => {
    daemon = await startDaemon();
    await addFixture(daemon, 'fx');
  });

  afterAll(async () => {
    await daemon?.stop();
  });

  function post(method: string, body: string, name?: string) {
    return rawRequest({
      port: daemon.port,
      method: 'POST',
      path,
      headers: {
        host: `127.0.0.1:${daemon.port}`,
        authorization: `Bearer ${daemon.token}`,
        accept: 'application/json, text/event-stream',
        'content-type': 'application/json',
        'mcp-protocol-version': '2026-07-28',
        'mcp-method': method,
        ...(name === undefined ? {} : { 'mcp-name': name }),
      },
      body,
    });
  }

  const callWith = (id: string, extra = '') =>
    `{"jsonrpc":"2.0","id":${id}${extra},"method":"tools/call","params":{"name":"${tool}","arguments":{"text":"hi"},"_meta":${META}}}`;

  it.each(['null', '1.5', 'true', '[1]', '{"a":1}', '99999999999999999999', '-1e308'])(
    'refuses the id %s as an Invalid Request (HTTP 400, id null)',
    async (id) => {
      const answer = await post('tools/call', callWith(id), tool);
      expect(answer.status, answer.body).toBe(400);
      expect(JSON.parse(answer.body)).toEqual({
        jsonrpc: '2.0',
        id: null,
        error: { code: -32600, message: expect.stringContaining('id') },
      });
    },
  );

  it('refuses another jsonrpc version and keys JSON-RPC does not have', async () => {
    const body = `{"jsonrpc":"1.0","id":1,"method":"tools/list","params":{"_meta":${META}}}`;
    const version = await post('tools/list', body);
    expect(version.status, version.body).toBe(400);
    expect(JSON.parse(version.body)).toMatchObject({ id: null, error: { code: -32600 } });
    const junk = await post('tools/call', callWith('2', ',"junk":1'), tool);
    expect(junk.status, junk.body).toBe(400);
    expect(JSON.parse(junk.body)).toMatchObject({ id: null, error: { code: -32600 } });
  });

  it('still answers a well-formed call under its own id', async () => {
    const answer = await post('tools/call', callWith('"ok-1"'), tool);
    expect(answer.status, answer.body).toBe(200);
    const message = JSON.parse(/data: (.*)/.exec(answer.body)?.[1] ?? answer.body) as {
      id: unknown;
      result: unknown;
    };
    expect(message.id).toBe('ok-1');
    expect(JSON.stringify(message.result)).toContain('hi');
  });
});
