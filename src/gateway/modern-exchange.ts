import type { ServerResponse } from 'node:http';
import { callerTrace } from '../observability/request-trace.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { RPC } from '../domain/mcp-envelope.js';
import { isResponse } from './json-rpc-shape.js';
import { PostExchange } from './post-exchange.js';
import type { StatelessService } from './stateless-service.js';

/**
 * The HTTP status 2026-07-28 gives an error answer sent as JSON: 404 for a method Coffer
 * does not serve on this era (the removed ones included: initialize, ping,
 * logging/setLevel, resources/subscribe), 400 for a capability the client did not
 * declare; every other answer, errors of a call included, is 200.
 */
export function modernAnswerStatus(answer: JSONRPCMessage): number {
  if (!('error' in answer)) return 200;
  if (answer.error.code === -32601) return 404;
  if (answer.error.code === RPC.missingClientCapability) return 400;
  return 200;
}

/** Without an answer by then, the response turns into an SSE stream (as a session's does). */
const STREAM_AFTER_MS = 10_000;

/**
 * One 2026-07-28 POST: its request is answered on this response alone, as JSON or, once
 * progress or a subscriptions/listen notification must go first, as an SSE stream. The
 * client closing the response aborts the request. A notification gets 202: it concerns
 * no request of this POST (a request is cancelled by closing its stream).
 */
export function serveModernPost(
  service: StatelessService,
  res: ServerResponse,
  message: JSONRPCMessage,
): void {
  if (!('id' in message) || !('method' in message)) return void res.writeHead(202).end();
  const exchange = new PostExchange({
    res,
    ids: [message.id],
    batch: false,
    sessionId: undefined,
    streamAfterMs: STREAM_AFTER_MS,
    serialize: (out) => service.serialized.serialize(out),
    encode: (out) => service.serialized.encode(out),
    statusOf: modernAnswerStatus,
  });
  let ended = false;
  const router = service.channel((out) => {
    if (ended) return Promise.reject(new Error('the response has ended'));
    ended = exchange.deliver(out, isResponse(out) ? out.id : undefined);
    return Promise.resolve();
  });
  res.once('close', () => {
    if (!ended) router.close();
  });
  router.receive(message, callerTrace(res.req.headers));
}
