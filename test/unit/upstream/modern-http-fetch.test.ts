import { describe, expect, it } from 'vitest';
import { encodeHeaderValue as headerValue } from '../../../src/domain/param-header-rules.js';
import { modernHttpFetch } from '../../../src/upstream/modern-http-fetch.js';

const envelope = {
  'io.modelcontextprotocol/protocolVersion': '2026-07-28',
  'io.modelcontextprotocol/clientCapabilities': {},
  'io.modelcontextprotocol/clientInfo': { name: 'coffer', version: '9' },
};

/** A base fetch that records each request's headers and answers what the test says. */
function recordingFetch(answer: () => Response = () => Response.json({})) {
  const seen: Headers[] = [];
  const base = (_url: string | URL, init?: RequestInit) => {
    seen.push(new Headers(init?.headers));
    return Promise.resolve(answer());
  };
  return { fetch: modernHttpFetch(base), seen };
}

function post(message: object, headers: Record<string, string> = {}): RequestInit {
  return { method: 'POST', headers, body: JSON.stringify({ jsonrpc: '2.0', ...message }) };
}

describe('modernHttpFetch: the 2026-07-28 headers', () => {
  it('mirrors the envelope version, the method and the tool name into headers', async () => {
    const { fetch, seen } = recordingFetch();
    const params = { name: 'echo', arguments: {}, _meta: envelope };
    await fetch('http://127.0.0.1/mcp', post({ id: 1, method: 'tools/call', params }, { a: 'b' }));
    expect(Object.fromEntries(seen[0]!)).toEqual({
      a: 'b',
      'mcp-protocol-version': '2026-07-28',
      'mcp-method': 'tools/call',
      'mcp-name': 'echo',
    });
  });

  it('names a resource by its uri, and sends no Mcp-Name for a method without a target', async () => {
    const { fetch, seen } = recordingFetch();
    const read = { uri: 'file:///a b.txt', _meta: envelope };
    await fetch('u', post({ id: 1, method: 'resources/read', params: read }));
    await fetch('u', post({ id: 2, method: 'tools/list', params: { _meta: envelope } }));
    expect(seen[0]!.get('mcp-name')).toBe('file:///a b.txt');
    expect(seen[1]!.get('mcp-method')).toBe('tools/list');
    expect(seen[1]!.has('mcp-name')).toBe(false);
  });

  it('adds nothing to a 2025 request, a notification, or a body that is not JSON-RPC', async () => {
    const { fetch, seen } = recordingFetch();
    await fetch('u', post({ id: 1, method: 'tools/call', params: { name: 'echo' } }));
    await fetch('u', post({ method: 'notifications/initialized' }));
    await fetch('u', { method: 'POST', body: 'grant_type=refresh_token' });
    for (const headers of seen) {
      expect(headers.has('mcp-method')).toBe(false);
      expect(headers.has('mcp-protocol-version')).toBe(false);
    }
  });

  it('encodes a name that is no plain header text as base64 of its UTF-8', () => {
    expect(headerValue('get_weather')).toBe('get_weather');
    expect(headerValue('météo')).toBe(`=?base64?${Buffer.from('météo').toString('base64')}?=`);
    expect(headerValue(' padded')).toMatch(/^=\?base64\?.*\?=$/);
    expect(headerValue('')).toBe('=?base64??=');
    expect(headerValue('=?base64?eA==?=')).toMatch(/^=\?base64\?PT9iYXNlNjQ/);
  });
});

describe('modernHttpFetch: a 400 that answers the request', () => {
  const unsupported = {
    jsonrpc: '2.0',
    id: 0,
    error: { code: -32022, message: 'Unsupported protocol version: 2025-11-25' },
  };

  it('turns a JSON-RPC error answering the posted request into a 200 answer', async () => {
    const { fetch } = recordingFetch(() => Response.json(unsupported, { status: 400 }));
    const response = await fetch('u', post({ id: 0, method: 'initialize', params: {} }));
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/json');
    expect(await response.json()).toEqual(unsupported);
  });

  it('keeps a 400 about another id, or without a JSON-RPC body, as it was', async () => {
    const other = recordingFetch(() =>
      Response.json({ ...unsupported, id: null }, { status: 400 }),
    );
    const kept = await other.fetch('u', post({ id: 0, method: 'initialize', params: {} }));
    expect(kept.status).toBe(400);
    expect(await kept.json()).toMatchObject({ id: null });
    const text = recordingFetch(() => new Response('Bad Request', { status: 400 }));
    const plain = await text.fetch('u', post({ id: 0, method: 'initialize', params: {} }));
    expect(plain.status).toBe(400);
    expect(await plain.text()).toBe('Bad Request');
  });

  it('leaves other statuses alone, an error body included', async () => {
    const { fetch } = recordingFetch(() => Response.json(unsupported, { status: 401 }));
    const response = await fetch('u', post({ id: 0, method: 'initialize', params: {} }));
    expect(response.status).toBe(401);
  });
});
