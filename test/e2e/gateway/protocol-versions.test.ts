import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  startDaemon,
  type RunningDaemon,
  fixtureServer as fixture,
} from '../../support/running-daemon.js';

/** One JSON-RPC exchange over Streamable HTTP; answers may come as JSON or one SSE event. */
async function post(
  daemon: RunningDaemon,
  body: unknown,
  headers: Record<string, string> = {},
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- a JSON-RPC message of any shape
): Promise<{ session: string | null; message: any }> {
  const response = await fetch(`${daemon.baseUrl}/mcp`, {
    method: 'POST',
    headers: {
      authorization: `Bearer ${daemon.token}`,
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      ...headers,
    },
    body: JSON.stringify(body),
  });
  const text = await response.text();
  const data = text.includes('data: ') ? /data: (.*)/.exec(text)![1]! : text;
  return {
    session: response.headers.get('mcp-session-id'),
    message: text === '' ? null : JSON.parse(data),
  };
}

/** Clients speaking each protocol version in use today initialize, list and call. */
describe('protocol versions', () => {
  let daemon: RunningDaemon;

  beforeAll(async () => {
    daemon = await startDaemon();
    await daemon.api('POST', '/servers', {
      name: 'fixture',
      transport: 'stdio',
      command: process.execPath,
      args: [fixture],
    });
  });

  afterAll(async () => {
    await daemon?.stop();
  });

  it.each(['2025-03-26', '2025-06-18', '2025-11-25'])('serves a %s client', async (version) => {
    const init = await post(daemon, {
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: {
        protocolVersion: version,
        capabilities: {},
        clientInfo: { name: 'v', version: '1' },
      },
    });
    expect(init.message.result.protocolVersion).toBe(version);
    const headers = { 'mcp-session-id': init.session!, 'mcp-protocol-version': version };
    await post(daemon, { jsonrpc: '2.0', method: 'notifications/initialized' }, headers);
    const ping = await post(daemon, { jsonrpc: '2.0', id: 2, method: 'ping' }, headers);
    expect(ping.message.result).toEqual({});
    const call = await post(
      daemon,
      {
        jsonrpc: '2.0',
        id: 3,
        method: 'tools/call',
        params: { name: 'fixture__echo', arguments: { v: version } },
      },
      headers,
    );
    expect(call.message.result.content[0].text).toContain(version);
  });

  it('refuses an unsupported MCP-Protocol-Version header', async () => {
    const init = await post(daemon, {
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: {
        protocolVersion: '2025-06-18',
        capabilities: {},
        clientInfo: { name: 'v', version: '1' },
      },
    });
    const bad = await post(
      daemon,
      { jsonrpc: '2.0', id: 2, method: 'ping' },
      {
        'mcp-session-id': init.session!,
        'mcp-protocol-version': '1999-01-01',
      },
    );
    expect(bad.message.error).toBeDefined();
  });
});
