import type { HttpBindings } from '@hono/node-server';
import { RESPONSE_ALREADY_SENT } from '@hono/node-server/utils/response';
import type { Context, Hono, Next } from 'hono';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { ErrorCode } from '../domain/errors.js';
import type { TraceContext } from '../observability/trace-context.js';
import { errorBody } from './error-response.js';

/**
 * What every part of the daemon's HTTP edge shares: the Hono app's types, the path of a
 * node request, and the JSON answers (and the raw hand-over) its routes and guard give.
 */

export interface EdgeEnv {
  Bindings: HttpBindings;
  /** The guard let a browser session in (not the token holder). */
  Variables: { browser: boolean };
}
export type Edge = Hono<EdgeEnv>;
export type EdgeContext = Context<EdgeEnv>;
export type EdgeHandler = (
  c: EdgeContext,
  next: Next,
) => Response | Promise<Response> | Promise<void>;
export type RawHandler = (req: IncomingMessage, res: ServerResponse) => void;

export function pathnameOf(url: string | undefined): string {
  const raw = url ?? '/';
  const query = raw.indexOf('?');
  return query === -1 ? raw : raw.slice(0, query);
}

/** A JSON answer with the headers every daemon JSON answer carries. */
export function jsonAnswer(
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
): Response {
  return new Response(JSON.stringify(body), {
    status,
    headers: {
      'content-type': 'application/json; charset=utf-8',
      'cache-control': 'no-store',
      ...headers,
    },
  });
}

/** What an error answer may add: headers, the hint, and the trace its body names. */
export interface ErrorExtras {
  readonly headers?: Record<string, string>;
  readonly hint?: string;
  readonly trace?: TraceContext;
}

export function errorAnswer(
  status: number,
  code: ErrorCode,
  message: string,
  { headers = {}, hint, trace }: ErrorExtras = {},
): Response {
  return jsonAnswer(status, errorBody(code, message, hint, trace), headers);
}

/** Hands the node request and response to a handler that answers on them itself. */
export function raw(c: EdgeContext, handler: RawHandler): Response {
  handler(c.env.incoming, c.env.outgoing);
  return RESPONSE_ALREADY_SENT;
}
