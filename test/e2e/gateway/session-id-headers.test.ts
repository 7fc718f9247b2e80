import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectSessionAlive, mcpHeaders, openSession } from '../../fuzz/support/mcp-session.js';
import { rawRequest } from '../../fuzz/support/raw-request.js';
import { startDaemon, type RunningDaemon } from '../../support/running-daemon.js';

const MODERN = '2026-07-28';
const discover = JSON.stringify({
  jsonrpc: '2.0',
  id: 'd',
  method: 'server/discover',
  params: {
    _meta: {
      'io.modelcontextprotocol/protocolVersion': MODERN,
      'io.modelcontextprotocol/clientCapabilities': {},
      'io.modelcontextprotocol/clientInfo': { name: 't', version: '1' },
    },
  },
});

/**
 * A request naming two sessions (a proxy adding its own header, a client merging two) is
 * ambiguous: it is refused as such, 400 with what to send, where it was answered 404
 * "Session not found" and the client started over with a new session.
 */
describe('a request with more than one Mcp-Session-Id header', () => {
  let daemon: RunningDaemon;
  let session: string;

  beforeAll(async () => {
    daemon = await startDaemon();
    session = await openSession(daemon, '/mcp');
  });
  afterAll(async () => {
    await daemon?.stop();
  });

  const twice = (headers: Record<string, string>, second: string) => ({
    ...headers,
    'mcp-session-id': [session, second],
  });

  const expectRefused = (answer: { status: number; body: string }, id: unknown) => {
    expect(answer.status, answer.body).toBe(400);
    expect(JSON.parse(answer.body)).toEqual({
      jsonrpc: '2.0',
      id,
      error: {
        code: -32600,
        message:
          'Invalid Request: the request carries 2 Mcp-Session-Id headers; send one session id per request',
      },
    });
  };

  it.each([
    ['the same id twice', () => session],
    ['two ids', () => 'another-session'],
  ])('refuses a 2025 POST with %s, under its id', async (_, second) => {
    const answer = await rawRequest({
      port: daemon.port,
      method: 'POST',
      path: '/mcp',
      headers: twice(mcpHeaders(daemon), second()),
      body: '{"jsonrpc":"2.0","id":"p","method":"ping"}',
    });
    expectRefused(answer, 'p');
  });

  it('refuses a 2026-07-28 POST with two', async () => {
    const headers = { ...mcpHeaders(daemon), 'mcp-protocol-version': MODERN };
    const answer = await rawRequest({
      port: daemon.port,
      method: 'POST',
      path: '/mcp',
      headers: { ...twice(headers, 'x'), 'mcp-method': 'server/discover' },
      body: discover,
    });
    expectRefused(answer, 'd');
  });

  it('refuses a GET and a DELETE with two, and the session lives on', async () => {
    for (const method of ['GET', 'DELETE']) {
      const answer = await rawRequest({
        port: daemon.port,
        method,
        path: '/mcp',
        headers: twice(mcpHeaders(daemon), session),
      });
      expectRefused(answer, null);
    }
    await expectSessionAlive(daemon, '/mcp', session);
  });
});
