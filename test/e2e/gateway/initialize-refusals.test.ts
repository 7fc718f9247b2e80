import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDaemon, type RunningDaemon } from '../../support/running-daemon.js';
import { mcpHeaders, postMcp, PROTOCOL_VERSION } from '../../fuzz/support/mcp-session.js';

const CLIENT = { name: 't', version: '1' };
const initialize = (params: unknown, id: unknown = 1) =>
  JSON.stringify({ jsonrpc: '2.0', id, method: 'initialize', params });

/**
 * A POST without a session that is an initialize, only a broken one, is told what is
 * wrong with it: "send initialize first" misled a client that had just sent one.
 */
describe('an initialize the daemon cannot take', () => {
  let daemon: RunningDaemon;

  beforeAll(async () => {
    daemon = await startDaemon();
  });

  afterAll(async () => {
    await daemon?.stop();
  });

  it.each([
    ['no params', undefined, 'initialize needs params'],
    ['no protocolVersion', { capabilities: {}, clientInfo: CLIENT }, 'params.protocolVersion'],
    [
      'capabilities that are no object',
      { protocolVersion: PROTOCOL_VERSION, capabilities: [], clientInfo: CLIENT },
      'params.capabilities',
    ],
    ['no clientInfo', { protocolVersion: PROTOCOL_VERSION, capabilities: {} }, 'params.clientInfo'],
  ])('says what is wrong with %s (-32602 under its id)', async (_, params, text) => {
    const answer = await postMcp(daemon, '/mcp', initialize(params), mcpHeaders(daemon));
    expect(answer.status, answer.body).toBe(400);
    expect(answer.headers['mcp-session-id']).toBeUndefined();
    expect(JSON.parse(answer.body)).toEqual({
      jsonrpc: '2.0',
      id: 1,
      error: { code: -32602, message: expect.stringContaining(text) },
    });
  });

  it('says that initialize goes alone, not in a batch', async () => {
    const params = { protocolVersion: PROTOCOL_VERSION, capabilities: {}, clientInfo: CLIENT };
    const batch = `[${initialize(params)},{"jsonrpc":"2.0","id":2,"method":"ping"}]`;
    const answer = await postMcp(daemon, '/mcp', batch, mcpHeaders(daemon));
    expect(answer.status, answer.body).toBe(400);
    expect(JSON.parse(answer.body)).toEqual({
      jsonrpc: '2.0',
      id: null,
      error: { code: -32600, message: expect.stringContaining('not in a JSON-RPC batch') },
    });
  });

  it('refuses an initialize with a bad id as an Invalid Request', async () => {
    const params = { protocolVersion: PROTOCOL_VERSION, capabilities: {}, clientInfo: CLIENT };
    const answer = await postMcp(daemon, '/mcp', initialize(params, 1.5), mcpHeaders(daemon));
    expect(answer.status, answer.body).toBe(400);
    expect(JSON.parse(answer.body)).toMatchObject({ id: null, error: { code: -32600 } });
  });

  it('still tells a request that is no initialize to send one first', async () => {
    const answer = await postMcp(
      daemon,
      '/mcp',
      '{"jsonrpc":"2.0","id":3,"method":"tools/list"}',
      mcpHeaders(daemon),
    );
    expect(answer.status, answer.body).toBe(400);
    expect(answer.body).toContain('send initialize first');
  });
});
