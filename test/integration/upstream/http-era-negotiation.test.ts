import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { afterEach, describe, expect, it } from 'vitest';
import type { UpstreamConnection } from '../../../src/domain/ports.js';
import {
  serverDefinitionSchema,
  type ServerDefinition,
} from '../../../src/domain/server-definition.js';
import { SdkUpstreamConnector } from '../../../src/upstream/upstream-connector.js';

/**
 * How Coffer finds the era of a remote (Streamable HTTP) upstream it has not met: a
 * `server/discover` POST with the 2026-07-28 envelope and headers first (the spec's
 * HTTP backward compatibility), then `initialize` for a 2025 server that refuses it.
 */

interface Posted {
  readonly method: string;
  readonly headers: IncomingMessage['headers'];
}

interface Upstream {
  readonly url: string;
  readonly posted: Posted[];
  close(): Promise<void>;
}

const context = {
  clientCapabilities: {},
  peer: { request: () => Promise.reject(new Error('unused')), notify: () => {} },
  sessionId: null,
};

type Body = { method?: string; id?: unknown };

function readJson(req: IncomingMessage): Promise<Body | undefined> {
  return new Promise((resolve, reject) => {
    let body = '';
    req.setEncoding('utf8');
    req.on('data', (chunk: string) => (body += chunk));
    req.on('end', () => resolve(body === '' ? undefined : (JSON.parse(body) as Body)));
    req.on('error', reject);
  });
}

async function serve(
  handle: (req: IncomingMessage, res: ServerResponse, body: unknown) => Promise<void>,
): Promise<Upstream> {
  const posted: Posted[] = [];
  const http = createServer((req, res) => {
    void (async () => {
      const body = req.method === 'POST' ? await readJson(req) : undefined;
      if (typeof body?.method === 'string')
        posted.push({ method: body.method, headers: req.headers });
      await handle(req, res, body);
    })().catch(() => {
      if (!res.headersSent) res.writeHead(500).end();
    });
  });
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  const { port } = http.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/mcp`,
    posted,
    close: () =>
      new Promise((resolve) => {
        http.closeAllConnections();
        http.close(() => resolve());
      }),
  };
}

/** A 2025 server as the SDK v1 builds it: stateful, HTTP 400 to anything before initialize. */
function statefulLegacyServer(): Promise<Upstream> {
  const sessions = new Map<string, StreamableHTTPServerTransport>();
  return serve(async (req, res, body) => {
    const id = req.headers['mcp-session-id'];
    let transport = typeof id === 'string' ? sessions.get(id) : undefined;
    if (transport === undefined) {
      transport = new StreamableHTTPServerTransport({
        sessionIdGenerator: randomUUID,
        onsessioninitialized: (sessionId) => void sessions.set(sessionId, transport!),
      });
      const server = new McpServer({ name: 'legacy', version: '1.0.0' });
      server.registerTool('hello', { description: 'Says hello' }, () => ({
        content: [{ type: 'text', text: 'hello from 2025' }],
      }));
      await server.connect(transport);
    }
    await transport.handleRequest(req, res, body);
  });
}

/** A 2026-07-28 server that refuses the first request it sees with -32022, then serves. */
function refusingModernServer(): Promise<Upstream> {
  let refused = false;
  return serve((_req, res, body) => {
    const { id, method } = (body ?? {}) as { id?: unknown; method?: string };
    const answer = (status: number, message: object) => {
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ jsonrpc: '2.0', id, ...message }));
    };
    if (!refused) {
      refused = true;
      const data = { supported: ['2026-07-28'], requested: '2026-07-28' };
      answer(400, { error: { code: -32022, message: 'Unsupported protocol version', data } });
    } else if (method === 'server/discover') {
      const capabilities = { tools: {} };
      answer(200, {
        result: { resultType: 'complete', supportedVersions: ['2026-07-28'], capabilities },
      });
    } else {
      answer(200, { result: { resultType: 'complete', tools: [] } });
    }
    return Promise.resolve();
  });
}

function definition(url: string): ServerDefinition {
  return serverDefinitionSchema.parse({ name: 'remote', transport: 'http', url });
}

describe('a remote upstream of unknown era', () => {
  const opened: UpstreamConnection[] = [];
  const upstreams: Upstream[] = [];
  const connector = new SdkUpstreamConnector({ clientInfo: { name: 'coffer-test', version: '1' } });
  const connect = async (upstream: Upstream) => {
    const connection = await connector.connect(definition(upstream.url), context);
    opened.push(connection);
    return connection;
  };

  afterEach(async () => {
    await Promise.allSettled(opened.splice(0).map((connection) => connection.close()));
    await Promise.allSettled(upstreams.splice(0).map((upstream) => upstream.close()));
  });

  it('is probed with server/discover, and a 2025 server that refuses it is initialized', async () => {
    const upstream = await statefulLegacyServer();
    upstreams.push(upstream);
    const connection = await connect(upstream);
    expect(connection.protocolVersion).toBe('2025-11-25');
    expect(upstream.posted.map((post) => post.method).slice(0, 3)).toEqual([
      'server/discover',
      'initialize',
      'notifications/initialized',
    ]);
    const result = await connection.request('tools/call', { name: 'hello', arguments: {} });
    expect(result).toEqual({ content: [{ type: 'text', text: 'hello from 2025' }] });
    // Remembered: the next connection asks initialize first, as before eras.
    const count = upstream.posted.length;
    await connect(upstream);
    expect(upstream.posted[count]?.method).toBe('initialize');
  });

  it('sends the envelope headers on every POST, and asks again after a -32022 naming 2026-07-28', async () => {
    const upstream = await refusingModernServer();
    upstreams.push(upstream);
    const connection = await connect(upstream);
    expect(connection.protocolVersion).toBe('2026-07-28');
    await connection.request('tools/list', undefined);
    expect(upstream.posted.map((post) => post.method)).toEqual(
      expect.arrayContaining(['server/discover', 'tools/list']),
    );
    expect(upstream.posted.map((post) => post.method)).not.toContain('initialize');
    for (const post of upstream.posted) {
      expect(post.headers['mcp-protocol-version']).toBe('2026-07-28');
      expect(post.headers['mcp-method']).toBe(post.method);
    }
  });
});
