import { expect } from 'vitest';
import type { RunningDaemon } from '../../support/running-daemon.js';
import { rawRequest, type RawResponse } from './raw-request.js';

export const PROTOCOL_VERSION = '2025-06-18';

/** Headers of an MCP POST with the token, as a well-behaved client sends them. */
export function mcpHeaders(daemon: RunningDaemon, session?: string): Record<string, string> {
  return {
    host: `127.0.0.1:${daemon.port}`,
    authorization: `Bearer ${daemon.token}`,
    accept: 'application/json, text/event-stream',
    'content-type': 'application/json',
    'mcp-protocol-version': PROTOCOL_VERSION,
    ...(session === undefined ? {} : { 'mcp-session-id': session }),
  };
}

export function postMcp(
  daemon: RunningDaemon,
  path: string,
  body: Buffer | string,
  headers: Record<string, string>,
): Promise<RawResponse> {
  return rawRequest({ port: daemon.port, method: 'POST', path, headers, body });
}

/** Opens a session over raw HTTP (initialize + initialized) and returns its id. */
export async function openSession(daemon: RunningDaemon, path: string): Promise<string> {
  const init = await postMcp(
    daemon,
    path,
    JSON.stringify({
      jsonrpc: '2.0',
      id: 0,
      method: 'initialize',
      params: {
        protocolVersion: PROTOCOL_VERSION,
        capabilities: {},
        clientInfo: { name: 'fuzz', version: '1' },
      },
    }),
    mcpHeaders(daemon),
  );
  expect(init.status, init.body).toBe(200);
  const session = init.headers['mcp-session-id'];
  expect(typeof session).toBe('string');
  const id = session as string;
  const initialized = await postMcp(
    daemon,
    path,
    '{"jsonrpc":"2.0","method":"notifications/initialized"}',
    mcpHeaders(daemon, id),
  );
  expect(initialized.status).toBe(202);
  return id;
}

/** A session that answers ping is alive. */
export async function expectSessionAlive(
  daemon: RunningDaemon,
  path: string,
  session: string,
): Promise<void> {
  const ping = await postMcp(
    daemon,
    path,
    '{"jsonrpc":"2.0","id":"alive","method":"ping"}',
    mcpHeaders(daemon, session),
  );
  expect(ping.status, ping.body).toBe(200);
  expect(ping.body).toContain('"id":"alive"');
  expect(ping.body).toContain('"result":{}');
}

/** Ends a session the fuzzer opened by chance (a valid initialize), so none pile up. */
export async function closeSession(daemon: RunningDaemon, path: string, session: string) {
  await rawRequest({
    port: daemon.port,
    method: 'DELETE',
    path,
    headers: mcpHeaders(daemon, session),
  });
}
