import { getRequestListener, RequestError } from '@hono/node-server';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { traceFields, type Logger } from '../observability/logger.js';
import { requestTrace } from '../observability/request-trace.js';
import { newTraceContext } from '../observability/trace-context.js';
import { createDaemonEdge, type DaemonRouterOptions } from './daemon-edge.js';
import { errorAnswer, pathnameOf } from './edge-answers.js';
import { sendError } from './error-response.js';

export type RequestHandler = (req: IncomingMessage, res: ServerResponse) => void;
export type { DaemonRouterOptions } from './daemon-edge.js';

/**
 * A request node-server cannot turn into a URL (no Host, a Host that is not a host name,
 * a backslash in the path) never reaches the edge app: refuse it the way the guard and
 * the path check would.
 */
function unreadableRequest(error: unknown, logger: Logger): Response {
  // node-server hands over the error alone, not the request: the answer gets a trace of
  // its own, which the log line names too.
  const trace = newTraceContext();
  if (!(error instanceof RequestError)) {
    logger.error({ err: error, ...traceFields(trace) }, 'request routing failed');
    return errorAnswer(500, 'INTERNAL', 'Internal error', { trace });
  }
  if (/host/i.test(error.message))
    return errorAnswer(403, 'FORBIDDEN', 'Host header does not name this loopback daemon', {
      trace,
    });
  return errorAnswer(
    400,
    'INVALID_INPUT',
    'Malformed path: percent-encode it, without "." or ".." segments',
    { trace },
  );
}

function logRequest(req: IncomingMessage, res: ServerResponse, logger: Logger): void {
  const started = process.hrtime.bigint();
  res.once('finish', () => {
    logger.debug(
      {
        method: req.method,
        path: pathnameOf(req.url),
        status: res.statusCode,
        ms: Number(process.hrtime.bigint() - started) / 1e6,
        ...traceFields(requestTrace(req)),
      },
      'http request',
    );
  });
}

/** The daemon's edge (daemon-edge.ts) on node:http, each request in its own trace. */
export function createDaemonRouter(options: DaemonRouterOptions): RequestHandler {
  const { logger } = options;
  const edge = createDaemonEdge(options);
  const listener = getRequestListener(edge.fetch, {
    overrideGlobalObjects: false,
    errorHandler: (error) => unreadableRequest(error, logger),
  });
  return (req, res) => {
    // The line is debug only: below that level, no clock reading nor listener per request.
    if (logger.isLevelEnabled('debug')) logRequest(req, res, logger);
    listener(req, res).catch((error: unknown) => {
      logger.error({ err: error, ...traceFields(requestTrace(req)) }, 'request routing failed');
      if (!res.headersSent) sendError(res, 500, 'INTERNAL', 'Internal error');
      else res.destroy();
    });
  };
}

/**
 * The daemon's node:http server. It is bound before the services exist; until `serve`
 * installs the router every request is answered 503 (and /healthz is not yet ok).
 */
export function createDaemonServer(): { server: Server; serve(handler: RequestHandler): void } {
  let handler: RequestHandler = (_req, res) => {
    sendError(res, 503, 'DAEMON_UNAVAILABLE', 'The Coffer daemon is starting');
  };
  const server = createServer((req, res) => handler(req, res));
  return {
    server,
    serve(next) {
      handler = next;
    },
  };
}
