import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addFixture, startDaemon, type RunningDaemon } from '../../support/running-daemon.js';
import { postModernRaw, modernEnvelope } from '../../support/modern-post.js';
import { mcpHeaders, postMcp, PROTOCOL_VERSION } from '../../fuzz/support/mcp-session.js';

const INITIALIZE = JSON.stringify({
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: {
    protocolVersion: PROTOCOL_VERSION,
    capabilities: {},
    clientInfo: { name: 't', version: '1' },
  },
});

/**
 * `/servers/<name>/mcp` serves a registered, enabled server only: an unknown or invalid
 * name is 404 SERVER_NOT_FOUND, a disabled server 409 SERVER_DISABLED, in both eras, and
 * no session is opened for either.
 */
describe('the single-server endpoint of a server Coffer does not serve', () => {
  let daemon: RunningDaemon;

  beforeAll(async () => {
    daemon = await startDaemon();
    await addFixture(daemon, 'fx');
    await addFixture(daemon, 'off');
    expect((await daemon.api('POST', '/servers/off/disable')).status).toBe(200);
  });

  afterAll(async () => {
    await daemon?.stop();
  });

  it.each([
    ['/servers/nope/mcp', 'No server named "nope"'],
    ['/servers/A%20B/mcp', 'is not a server name'],
  ])(
    'refuses initialize on %s with 404 SERVER_NOT_FOUND and opens no session',
    async (path, text) => {
      const answer = await postMcp(daemon, path, INITIALIZE, mcpHeaders(daemon));
      expect(answer.status, answer.body).toBe(404);
      expect(answer.headers['mcp-session-id']).toBeUndefined();
      expect(JSON.parse(answer.body)).toEqual({
        jsonrpc: '2.0',
        id: 1,
        error: {
          code: -32602,
          message: expect.stringContaining(text),
          data: expect.objectContaining({
            coffer_code: 'SERVER_NOT_FOUND',
            hint: expect.stringContaining('coffer mcp list'),
          }),
        },
      });
    },
  );

  it('refuses initialize on a disabled server with 409 SERVER_DISABLED and how to enable it', async () => {
    const answer = await postMcp(daemon, '/servers/off/mcp', INITIALIZE, mcpHeaders(daemon));
    expect(answer.status, answer.body).toBe(409);
    expect(answer.headers['mcp-session-id']).toBeUndefined();
    expect(JSON.parse(answer.body)).toMatchObject({
      id: 1,
      error: {
        code: -32602,
        data: {
          coffer_code: 'SERVER_DISABLED',
          hint: expect.stringContaining('coffer mcp enable off'),
        },
      },
    });
  });

  it.each([
    ['/servers/nope/mcp', 404, 'SERVER_NOT_FOUND'],
    ['/servers/off/mcp', 409, 'SERVER_DISABLED'],
  ])('refuses a 2026-07-28 request on %s with %i %s', async (path, status, code) => {
    const message = {
      jsonrpc: '2.0' as const,
      id: 'list-1',
      method: 'tools/list',
      params: { _meta: modernEnvelope('t') },
    };
    const answer = await postModernRaw(daemon, message, path);
    expect(answer.status).toBe(status);
    expect(answer.body).toMatchObject({ id: 'list-1', error: { data: { coffer_code: code } } });
  });

  it('still serves a registered, enabled server', async () => {
    const answer = await postMcp(daemon, '/servers/fx/mcp', INITIALIZE, mcpHeaders(daemon));
    expect(answer.status, answer.body).toBe(200);
    expect(typeof answer.headers['mcp-session-id']).toBe('string');
  });
});
