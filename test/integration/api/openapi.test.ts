import { z } from 'zod';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createServerSchema, toggleCapabilitiesSchema } from '../../../src/api/request-schemas.js';
import { createApiHarness, type ApiHarness } from './api-harness.js';

interface Document {
  openapi: string;
  paths: Record<
    string,
    Record<string, { requestBody?: { content: Record<string, { schema: unknown }> } }>
  >;
}

describe('GET /api/v1/openapi.json', () => {
  let harness: ApiHarness;
  let document: Document;

  beforeAll(async () => {
    harness = await createApiHarness();
    const response = await harness.request('GET', '/openapi.json');
    expect(response.status).toBe(200);
    document = (await response.json()) as Document;
  });

  afterAll(() => harness.close());

  it('is an OpenAPI 3.1 document', () => {
    expect(document.openapi).toBe('3.1.0');
  });

  it('documents every route the API app serves', () => {
    const served = harness.app.routes
      .filter((route) => route.method !== 'ALL')
      .map((route) => ({
        method: route.method.toLowerCase(),
        path: route.path.replace('/api/v1', '').replace(/:(\w+)/g, '{$1}'),
      }));
    expect(served.length).toBeGreaterThan(10);
    for (const { method, path } of served) {
      expect(document.paths[path]?.[method], `${method} ${path}`).toBeDefined();
    }
  });

  it('generates request bodies from the zod schemas the routes validate with', () => {
    const body = (path: string, method: string) =>
      document.paths[path]?.[method]?.requestBody?.content['application/json']?.schema;
    const expected = (schema: z.ZodType) => {
      const json = z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' }) as Record<
        string,
        unknown
      >;
      delete json.$schema;
      return json;
    };
    expect(body('/servers', 'post')).toEqual(expected(createServerSchema));
    expect(body('/servers/{name}/capabilities', 'post')).toEqual(
      expected(toggleCapabilitiesSchema),
    );
    expect(body('/servers/{name}/capabilities', 'post')).toMatchObject({
      required: ['type', 'keys', 'enabled'],
    });
  });

  it('describes shared on create (default false) and on PATCH', () => {
    const properties = (path: string, method: string) =>
      (
        document.paths[path]?.[method]?.requestBody?.content['application/json']?.schema as {
          properties: Record<string, unknown>;
        }
      ).properties;
    expect(properties('/servers', 'post')['shared']).toEqual({ type: 'boolean', default: false });
    expect(properties('/servers/{name}', 'patch')['shared']).toEqual({ type: 'boolean' });
  });
});
