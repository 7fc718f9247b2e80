import { Hono } from 'hono';
import { z } from 'zod';
import { operations, str, type JsonSchema, type Operation } from './openapi-operations.js';

const errorSchema: JsonSchema = {
  type: 'object',
  required: ['error'],
  properties: {
    error: {
      type: 'object',
      required: ['code', 'message', 'traceId'],
      properties: { code: str, message: str, hint: str, traceId: str },
    },
  },
};

function toSchema(schema: z.ZodType): JsonSchema {
  // io: 'input' documents what a caller sends (defaults optional), not what we parse to.
  const json = z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' }) as JsonSchema;
  delete json.$schema;
  return json;
}

function pathParameters(path: string) {
  return [...path.matchAll(/\{(\w+)\}/g)].map((match) => ({
    name: match[1],
    in: 'path',
    required: true,
    schema: str,
  }));
}

function describe(path: string, operation: Operation) {
  const [status, description] = operation.ok;
  const contentType = operation.stream === true ? 'text/event-stream' : 'application/json';
  const error = {
    content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } },
  };
  return {
    summary: operation.summary,
    parameters: [
      ...pathParameters(path),
      ...(operation.query ?? []).map((p) => ({ ...p, in: 'query', required: false })),
    ],
    ...(operation.body === undefined
      ? {}
      : {
          requestBody: {
            required: true,
            content: { 'application/json': { schema: toSchema(operation.body) } },
          },
        }),
    responses: {
      [String(status)]: {
        description,
        ...(status === 204 ? {} : { content: { [contentType]: {} } }),
      },
      '400': { description: 'invalid input', ...error },
      '401': { description: 'missing or wrong token / session', ...error },
      '403': { description: 'Host, Origin or CSRF check failed', ...error },
      '404': { description: 'no such server or route', ...error },
      '409': { description: 'conflicts with the current state', ...error },
      '503': { description: 'upstream unavailable', ...error },
    },
  };
}

/** The OpenAPI 3.1 document of /api/v1, built once per daemon. */
export function openApiDocument(): Record<string, unknown> {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const [path, methods] of Object.entries(operations)) {
    paths[path] = Object.fromEntries(
      Object.entries(methods).map(([method, operation]) => [method, describe(path, operation)]),
    );
  }
  return {
    openapi: '3.1.0',
    info: { title: 'Coffer daemon API', version: '1' },
    servers: [{ url: '/api/v1' }],
    components: {
      schemas: { Error: errorSchema },
      securitySchemes: {
        bearer: { type: 'http', scheme: 'bearer', description: 'the token in daemon.json' },
        session: {
          type: 'apiKey',
          in: 'cookie',
          name: 'coffer_session_<port>',
          description: 'browser session from /login; state changes also need X-Coffer-CSRF: 1',
        },
      },
    },
    security: [{ bearer: [] }, { session: [] }],
    paths,
  };
}

export function openApiRoutes(): Hono {
  const app = new Hono();
  let document: Record<string, unknown> | undefined;
  app.get('/openapi.json', (c) => c.json((document ??= openApiDocument())));
  return app;
}
