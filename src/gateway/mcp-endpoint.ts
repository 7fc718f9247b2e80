import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { isInitializeRequest, type JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { CofferError } from '../domain/errors.js';
import type { JsonObject } from '../domain/ports.js';
import { parseToolsMode, type ToolsMode } from '../domain/tools-mode.js';
import type { Gateway } from './gateway.js';
import { readMcpJsonBody } from './json-body.js';
import { classifyMessage, paramHeaderRejection, type EraRejection } from './era-classification.js';
import { initializeProblem } from './initialize-problem.js';
import { JsonFirstTransport } from './json-first-transport.js';
import { messageProblem, requestIdOf } from './json-rpc-shape.js';
import { serveModernPost } from './modern-exchange.js';
import { serverRefusal, type ServerRefusal } from './endpoint-server.js';
import { toJsonRpcError } from './rpc-error-mapping.js';
import type { Session, SessionScope, TransportFactory } from './session.js';
import { paramHeadersOf, standardHeadersOf } from './standard-headers.js';
import type { StatelessService } from './stateless-service.js';

const httpTransport: TransportFactory = ({ initialized, results }) =>
  new JsonFirstTransport({
    sessionIdGenerator: () => randomUUID(),
    onsessioninitialized: initialized,
    results,
  });

/** The HTTP session `sessionId` names on this endpoint; a socket session is not reachable here. */
function findHttpSession(
  gateway: Gateway,
  sessionId: string,
  scope: SessionScope,
): Session | undefined {
  const session = gateway.find(sessionId);
  return session?.servesHttp === true && sameScope(session.scope, scope) ? session : undefined;
}

/**
 * The MCP Streamable HTTP endpoint (`/mcp`, `/servers/<name>/mcp`): finds or creates
 * the session a request belongs to and hands the request to its transport.
 */
export function createMcpEndpoint(gateway: Gateway) {
  return async function handleMcp(
    req: IncomingMessage,
    res: ServerResponse,
    server: string | undefined,
  ): Promise<void> {
    const scope: SessionScope =
      server === undefined ? { kind: 'aggregated' } : { kind: 'single', server };
    const sessionId = req.headers['mcp-session-id'];
    if (req.method === 'POST')
      return handlePost(
        gateway,
        req,
        res,
        scope,
        typeof sessionId === 'string' ? sessionId : undefined,
      );
    if (req.method !== 'GET' && req.method !== 'DELETE') {
      res.setHeader('Allow', 'GET, POST, DELETE');
      return sendRpcError(res, 405, -32000, 'Method not allowed');
    }
    const several = severalSessionIds(req);
    if (several !== undefined) return sendRpcError(res, 400, -32600, several);
    const session =
      typeof sessionId === 'string' ? findHttpSession(gateway, sessionId, scope) : undefined;
    if (session === undefined) {
      const known = typeof sessionId === 'string';
      return sendRpcError(
        res,
        known ? 404 : 400,
        known ? -32001 : -32000,
        sessionProblem(sessionId),
      );
    }
    return session.handle(req, res, undefined);
  };
}

async function handlePost(
  gateway: Gateway,
  req: IncomingMessage,
  res: ServerResponse,
  scope: SessionScope,
  sessionId: string | undefined,
): Promise<void> {
  const read = await readMcpJsonBody(req);
  if (!read.ok) return sendRpcError(res, read.status, read.rpcCode, read.message);
  const body = read.value;
  const several = severalSessionIds(req);
  if (several !== undefined)
    return sendRpcError(res, 400, -32600, several, undefined, requestIdOf(body));
  // The body decides the era (a proxy dropping a header must not change it).
  const era = classifyMessage(body, standardHeadersOf(req));
  if (era.era === 'rejected') return sendRejection(res, era, body);
  // A session belongs to its server: only a new one (or a request of no session) asks.
  if (scope.kind === 'single' && (era.era === 'modern' || sessionId === undefined)) {
    const refused = await serverRefusal(gateway.context, scope.server);
    if (refused !== undefined) return sendRefusal(res, refused, body);
  }
  if (era.era === 'modern') {
    // The era is read from params alone; the envelope is checked here as the session
    // transport checks it on the 2025 path, before anything is routed.
    const problem = messageProblem(era.message);
    if (problem !== undefined) return sendRpcError(res, 400, -32600, `Invalid Request: ${problem}`);
    const mode = requestedToolsMode(req, scope);
    if (mode instanceof CofferError)
      return sendRpcError(res, 400, -32602, mode.message, undefined, requestId(body));
    const service = gateway.stateless.get(scope, mode);
    const refused = await paramHeadersRefused(service, era.message, req);
    if (refused !== undefined) return sendRejection(res, refused, body);
    return serveModernPost(service, res, era.message);
  }
  if (sessionId !== undefined) {
    const session = findHttpSession(gateway, sessionId, scope);
    if (session === undefined) return sendRpcError(res, 404, -32001, sessionProblem(sessionId));
    return session.handle(req, res, body);
  }
  if (!isInitializeRequest(body)) {
    const problem = initializeProblem(body);
    if (problem === undefined) return sendRpcError(res, 400, -32000, sessionProblem(undefined));
    return sendRpcError(res, 400, problem.code, problem.message, undefined, problem.id);
  }
  const capabilities = (body.params.capabilities ?? {}) as JsonObject;
  const mode = requestedToolsMode(req, scope);
  if (mode instanceof CofferError)
    return sendRpcError(res, 400, -32602, mode.message, undefined, requestId(body));
  let session;
  try {
    session = await gateway.open(scope, capabilities, httpTransport, mode);
  } catch (error) {
    const rpc = toJsonRpcError(error);
    return sendRpcError(
      res,
      503,
      rpc.code,
      rpc.message,
      rpc.data,
      (body as { id?: unknown }).id ?? null,
    );
  }
  await session.handle(req, res, body);
  if (session.id === '') await session.close();
}

/**
 * `?mode=lean` or `?mode=full` on `/mcp`, read at initialize: the session keeps it.
 * The single-server endpoint mirrors its upstream exactly, so it takes no mode.
 */
function requestedToolsMode(
  req: IncomingMessage,
  scope: SessionScope,
): ToolsMode | undefined | CofferError {
  // Most requests have no query: a 2026-07-28 client asks this on every request.
  if (req.url?.includes('?') !== true) return undefined;
  const mode = new URL(req.url, 'http://127.0.0.1').searchParams.get('mode');
  if (mode === null) return undefined;
  if (scope.kind === 'single')
    return new CofferError('INVALID_INPUT', '"mode" applies to /mcp only, not /servers/<name>/mcp');
  try {
    return parseToolsMode(mode, 'the "mode" parameter');
  } catch (error) {
    return error as CofferError;
  }
}

/**
 * A 2026-07-28 tools/call is checked against the `Mcp-Param-*` headers its tool declares
 * (the listed inputSchema, the same under /mcp's renaming) before it is routed. Only here:
 * the socket channel (`coffer shim`) carries no headers to check.
 */
async function paramHeadersRefused(
  service: StatelessService,
  message: JSONRPCMessage,
  req: IncomingMessage,
): Promise<EraRejection | undefined> {
  if (!('method' in message) || message.method !== 'tools/call' || !('id' in message))
    return undefined;
  const name = message.params?.['name'];
  if (typeof name !== 'string') return undefined;
  const inputSchema = await service.toolInputSchema(name);
  return paramHeaderRejection(message.params, inputSchema, paramHeadersOf(req));
}

function sendRefusal(res: ServerResponse, refused: ServerRefusal, body: unknown): void {
  const { code, message, data } = toJsonRpcError(refused.error);
  sendRpcError(res, refused.status, code, message, data, requestIdOf(body));
}

function sendRejection(res: ServerResponse, rejection: EraRejection, body: unknown): void {
  const { code, message, data } = rejection.error;
  sendRpcError(res, rejection.status, code, message, data, requestId(body));
}

function requestId(body: unknown): unknown {
  return (body as { id?: unknown } | null)?.id ?? null;
}

function sameScope(a: SessionScope, b: SessionScope): boolean {
  return (
    a.kind === b.kind && (a.kind === 'aggregated' || (b.kind === 'single' && a.server === b.server))
  );
}

/**
 * A session id the daemon does not know is -32001 with HTTP 404, as the SDK's transport
 * answers it (clients know that pair); no session id at all is -32000 with HTTP 400.
 */
function sessionProblem(sessionId: unknown): string {
  return sessionId === undefined
    ? 'Bad Request: no session; send initialize first'
    : 'Session not found; initialize a new session';
}

/**
 * Node joins a repeated `Mcp-Session-Id` into one "a, b" value, a session no one has:
 * the request was answered 404 and its client started over. Two are ambiguous, in
 * either era (a 2026-07-28 request has no session, but its sender thinks otherwise).
 */
function severalSessionIds(req: IncomingMessage): string | undefined {
  // A session id is visible ASCII (no space): only a joined value holds ", ". Checked
  // first, so a POST does not pay for Node building headersDistinct.
  if (req.headers['mcp-session-id']?.includes(', ') !== true) return undefined;
  const count = req.headersDistinct['mcp-session-id']?.length ?? 0;
  if (count < 2) return undefined;
  return `Invalid Request: the request carries ${count} Mcp-Session-Id headers; send one session id per request`;
}

function sendRpcError(
  res: ServerResponse,
  status: number,
  code: number,
  message: string,
  data?: unknown,
  id: unknown = null,
): void {
  if (res.headersSent) return void res.end();
  const error = data === undefined ? { code, message } : { code, message, data };
  res.writeHead(status, {
    'content-type': 'application/json',
    ...(status === 413 ? { connection: 'close' } : {}),
  });
  res.end(JSON.stringify({ jsonrpc: '2.0', error, id }));
}
