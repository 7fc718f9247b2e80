import { describe, expect, it } from 'vitest';
import type { ApiServices } from '../../../src/api/api-services.js';
import { createApiApp } from '../../../src/api/create-api-app.js';
import type { ToolSearchQuery } from '../../../src/domain/ports.js';

function app(withSearch = true) {
  const queries: ToolSearchQuery[] = [];
  const services = {
    clock: { now: () => new Date(0) },
    ...(withSearch
      ? {
          toolSearch: {
            search: (query: ToolSearchQuery) => {
              queries.push(query);
              return Promise.resolve({ tools: [], unavailable: [] });
            },
          },
        }
      : {}),
  } as unknown as ApiServices;
  const api = createApiApp(services);
  const get = async (path: string) => {
    const response = await api.request(`/api/v1${path}`);
    return { status: response.status, body: (await response.json()) as Record<string, any> }; // eslint-disable-line @typescript-eslint/no-explicit-any -- JSON
  };
  return { get, queries };
}

describe('GET /api/v1/tools/search', () => {
  it('passes the query, limit and server on, with the default limit', async () => {
    const { get, queries } = app();
    expect((await get('/tools/search?q=open%20an%20issue')).body).toEqual({
      query: 'open an issue',
      tools: [],
      unavailable: [],
    });
    await get('/tools/search?q=x&limit=3&server=github');
    expect(queries).toEqual([
      { query: 'open an issue', limit: 8 },
      { query: 'x', limit: 3, server: 'github' },
    ]);
  });

  it('refuses bad input with 400 and a readable message', async () => {
    const { get } = app();
    for (const [path, message] of [
      ['/tools/search', 'q'],
      ['/tools/search?q=%20', 'must not be empty'],
      ['/tools/search?q=x&limit=0', 'between 1 and 50'],
      ['/tools/search?q=x&limit=51', 'between 1 and 50'],
      ['/tools/search?q=x&limit=two', 'whole number'],
      ['/tools/search?q=x&color=red', 'color'],
    ] as const) {
      const { status, body } = await get(path);
      expect(status, path).toBe(400);
      expect(body.error.message, path).toContain(message);
    }
  });

  it('answers 404 when the daemon has no tool search', async () => {
    expect((await app(false).get('/tools/search?q=x')).status).toBe(404);
  });
});
