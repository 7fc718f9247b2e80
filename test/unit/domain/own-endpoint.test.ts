import { describe, expect, it } from 'vitest';
import { isOwnEndpoint } from '../../../src/domain/own-endpoint.js';

describe('isOwnEndpoint', () => {
  it.each([
    'http://127.0.0.1:8000/mcp',
    'http://localhost:8000/servers/files/mcp',
    'http://LOCALHOST:8000/',
    'http://[::1]:8000/mcp',
    'https://127.0.0.1:8000/mcp',
  ])('%s is the daemon on port 8000', (url) => expect(isOwnEndpoint(url, 8000)).toBe(true));

  it.each([
    'http://127.0.0.1:8001/mcp',
    'http://192.168.1.5:8000/mcp',
    'https://mcp.example.com:8000/mcp',
    'http://127.0.0.1/mcp',
    'not a url',
  ])('%s is not', (url) => expect(isOwnEndpoint(url, 8000)).toBe(false));

  it('takes the default port of the scheme, and knows no port before the daemon has one', () => {
    expect(isOwnEndpoint('http://127.0.0.1/mcp', 80)).toBe(true);
    expect(isOwnEndpoint('https://localhost/mcp', 443)).toBe(true);
    expect(isOwnEndpoint('http://127.0.0.1:0/mcp', 0)).toBe(false);
  });
});
