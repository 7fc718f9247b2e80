import { describe, expect, it } from 'vitest';
import { originHeaders } from '../../../src/upstream/origin-headers.js';

describe("originHeaders: a server's headers go to its own origin only", () => {
  const sent: { url: string; headers: Headers }[] = [];
  const base = (url: string | URL, init?: RequestInit) => {
    sent.push({ url: String(url), headers: new Headers(init?.headers) });
    return Promise.resolve(new Response(null, { status: 204 }));
  };
  const server = new URL('https://mcp.example.com/v1/mcp');
  const fetchFor = originHeaders(base, server, { 'X-Api-Key': 'k1', Authorization: 'Bearer b' });

  it('adds them to the server, over what the transport set, and to no other origin', async () => {
    sent.length = 0;
    await fetchFor('https://mcp.example.com/v1/mcp', { headers: { authorization: 'Bearer sdk' } });
    await fetchFor(new URL('https://mcp.example.com/.well-known/oauth-protected-resource'));
    await fetchFor('https://auth.example.com/.well-known/oauth-authorization-server');
    await fetchFor('http://mcp.example.com/v1/mcp'); // another scheme: another origin
    await fetchFor('https://mcp.example.com:8443/v1/mcp'); // another port too
    expect(sent.map(({ headers }) => headers.get('x-api-key'))).toEqual([
      'k1',
      'k1',
      null,
      null,
      null,
    ]);
    expect(sent[0]?.headers.get('authorization')).toBe('Bearer b');
    expect(sent[2]?.headers.get('authorization')).toBeNull();
  });
});
