import { describe, expect, it } from 'vitest';
import { classifyMessage } from '../../../src/gateway/era-classification.js';
import type { StandardHeaders } from '../../../src/gateway/standard-headers.js';

const envelope = (version = '2026-07-28') => ({
  'io.modelcontextprotocol/protocolVersion': version,
  'io.modelcontextprotocol/clientCapabilities': {},
});
const call = (version?: string) => ({
  jsonrpc: '2.0',
  id: 1,
  method: 'tools/call',
  params: { name: 'fx__echo', arguments: {}, _meta: envelope(version) },
});
const headers = (more: Partial<StandardHeaders> = {}): StandardHeaders => ({
  protocolVersion: '2026-07-28',
  method: 'tools/call',
  name: 'fx__echo',
  ...more,
});

describe('which era a message belongs to', () => {
  it('takes initialize and envelope-less requests for 2025', () => {
    const init = {
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { protocolVersion: '2026-07-28' },
    };
    expect(classifyMessage(init).era).toBe('legacy');
    expect(classifyMessage({ jsonrpc: '2.0', id: 2, method: 'tools/list' }).era).toBe('legacy');
    expect(classifyMessage([{ jsonrpc: '2.0', id: 2, method: 'ping' }]).era).toBe('legacy');
  });

  it('takes a request with the envelope for 2026-07-28, with or without headers', () => {
    expect(classifyMessage(call()).era).toBe('modern');
    expect(classifyMessage(call(), headers()).era).toBe('modern');
  });

  it('refuses a version Coffer does not speak with -32022, naming what it speaks', () => {
    const verdict = classifyMessage(call('2099-01-01'));
    expect(verdict).toMatchObject({ era: 'rejected', status: 400, error: { code: -32022 } });
    expect(verdict.era === 'rejected' && verdict.error.data).toEqual({
      supported: expect.arrayContaining(['2026-07-28', '2025-11-25']) as unknown,
      requested: '2099-01-01',
    });
  });

  it('judges a header that disagrees with the body before the version: -32020, not -32022', () => {
    expect(classifyMessage(call('2099-01-01'), headers())).toMatchObject({
      status: 400,
      error: { code: -32020 },
    });
    const both = headers({ protocolVersion: '2099-01-01' });
    expect(classifyMessage(call('2099-01-01'), both)).toMatchObject({ error: { code: -32022 } });
  });

  it('refuses a malformed envelope with -32602', () => {
    const bad = {
      jsonrpc: '2.0',
      id: 1,
      method: 'tools/list',
      params: { _meta: { 'io.modelcontextprotocol/protocolVersion': '2026-07-28' } },
    };
    expect(classifyMessage(bad)).toMatchObject({ error: { code: -32602 } });
  });

  it.each([
    ['a missing MCP-Protocol-Version', { protocolVersion: undefined }],
    ['another MCP-Protocol-Version', { protocolVersion: '2026-08-01' }],
    ['a missing Mcp-Method', { method: undefined }],
    ['another Mcp-Method', { method: 'tools/list' }],
    ['a missing Mcp-Name', { name: undefined }],
    ['another Mcp-Name', { name: 'fx__other' }],
    ['a broken Base64 Mcp-Name', { name: '=?base64?***?=' }],
  ])('refuses %s with -32020', (_, more) => {
    expect(classifyMessage(call(), headers(more))).toMatchObject({
      status: 400,
      error: { code: -32020 },
    });
  });

  it('reads a Base64 Mcp-Name', () => {
    const name = `=?base64?${Buffer.from('fx__echo').toString('base64')}?=`;
    expect(classifyMessage(call(), headers({ name })).era).toBe('modern');
  });

  it('refuses an initialize sent with a 2026-07-28 header, and a modern header without envelope', () => {
    const init = { jsonrpc: '2.0', id: 1, method: 'initialize', params: {} };
    expect(classifyMessage(init, headers())).toMatchObject({ error: { code: -32020 } });
    const bare = { jsonrpc: '2.0', id: 1, method: 'tools/list' };
    expect(classifyMessage(bare, headers())).toMatchObject({ error: { code: -32602 } });
  });

  it('refuses a batch with a 2026-07-28 request in it', () => {
    expect(classifyMessage([call()])).toMatchObject({ error: { code: -32600 } });
  });
});
