import { SseError } from '@modelcontextprotocol/sdk/client/sse.js';
import { StreamableHTTPError } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { InvalidTokenError } from '@modelcontextprotocol/sdk/server/auth/errors.js';
import { ErrorCode, McpError } from '@modelcontextprotocol/sdk/types.js';
import { describe, expect, it } from 'vitest';
import { CofferError } from '../../../src/domain/errors.js';
import { UpstreamRpcError } from '../../../src/domain/ports.js';
import { fromSdkError, isBrokenStream } from '../../../src/upstream/rpc-error.js';

describe('isBrokenStream', () => {
  it('counts any legacy SSE stream error as a lost session', () => {
    expect(isBrokenStream(new SseError(undefined, 'terminated', {} as never))).toBe(true);
    expect(isBrokenStream(new SseError(502, 'Bad Gateway', {} as never))).toBe(true);
  });

  it('counts a cut Streamable HTTP stream, and nothing else', () => {
    expect(isBrokenStream(new Error('SSE stream disconnected: TypeError: terminated'))).toBe(true);
    expect(isBrokenStream(new Error('Failed to parse message'))).toBe(false);
    expect(isBrokenStream(new McpError(ErrorCode.InternalError, 'boom'))).toBe(false);
    expect(isBrokenStream('text')).toBe(false);
  });
});

describe('fromSdkError', () => {
  const context = { server: 'remote', closed: false, established: true };

  it('keeps a JSON-RPC error answer as the upstream sent it', () => {
    const error = fromSdkError(new McpError(-32002, 'Resource not found', { uri: 'x' }), context);
    expect(error).toBeInstanceOf(UpstreamRpcError);
    expect(error).toMatchObject({ code: -32002, message: 'Resource not found' });
  });

  it('calls a 404 on a live session an expired session, and a closed one unavailable', () => {
    const stale = fromSdkError(new StreamableHTTPError(404, 'Session not found'), context);
    expect(stale).toBeInstanceOf(CofferError);
    expect((stale as CofferError).code).toBe('UPSTREAM_SESSION_EXPIRED');
    const closed = fromSdkError(new Error('x'), { ...context, closed: true });
    expect((closed as CofferError).code).toBe('UPSTREAM_UNAVAILABLE');
    expect((closed as CofferError).hint).toContain('coffer mcp test remote');
  });

  it('calls a refusal of our credentials AUTH_REQUIRED, with its OAuth code when it gave no words', () => {
    // What the SDK throws for a 401 whose body is {"error":"invalid_token"}: an empty message.
    const refused = fromSdkError(new InvalidTokenError(''), context) as CofferError;
    expect(refused.code).toBe('AUTH_REQUIRED');
    expect(refused.message).toBe(
      'Upstream "remote" refused Coffer\'s credentials: the server answered "invalid_token"',
    );
    expect(refused.hint).toContain('coffer mcp login remote');
    const worded = fromSdkError(new InvalidTokenError('token expired'), context) as CofferError;
    expect(worded.message).toContain('token expired (the server answered "invalid_token")');
  });

  it("points a remote server's failure at the server, not at a log Coffer does not keep", () => {
    const remote = { ...context, local: false };
    for (const error of [
      fromSdkError(new Error('boom'), remote),
      fromSdkError(new Error('x'), { ...remote, closed: true }),
    ] as CofferError[]) {
      expect(error.hint).toBe(
        'check that it is up and its URL: `coffer mcp test remote`, `coffer mcp show remote`',
      );
    }
    const local = fromSdkError(new Error('boom'), context) as CofferError;
    expect(local.hint).toContain('coffer logs --upstream remote');
  });

  it('names the transport switch when a server answers as one of the other HTTP transport', () => {
    const opening = { ...context, established: false, local: false };
    const sse = fromSdkError(
      new SseError(400, 'Non-200 status code (400)', undefined as never),
      opening,
    ) as CofferError;
    expect(sse.hint).toBe(
      'check its URL; if it serves Streamable HTTP rather than SSE: `coffer mcp edit remote -t http`',
    );
    const http = fromSdkError(
      new StreamableHTTPError(405, 'Error POSTing to endpoint: <!DOCTYPE html>'),
      opening,
    ) as CofferError;
    expect(http.hint).toContain('`coffer mcp edit remote -t sse`');
    const broken = fromSdkError(new StreamableHTTPError(500, 'oops'), opening) as CofferError;
    expect(broken.hint).not.toContain(' -t ');
  });

  it('says a 401 from a server without OAuth as that, not as a malformed OAuth answer', async () => {
    const { ServerError } = await import('@modelcontextprotocol/sdk/server/auth/errors.js');
    const raw = `HTTP 404: Invalid OAuth error response: SyntaxError: Unexpected token 'N', "Not Found" is not valid JSON. Raw body: Not Found`;
    const refused = fromSdkError(new ServerError(raw), context) as CofferError;
    expect(refused.code).toBe('AUTH_REQUIRED');
    expect(refused.message).toBe(
      'Upstream "remote" refused Coffer\'s credentials: it answered 401 and offers no OAuth sign-in Coffer could find',
    );
    expect(refused.hint).toContain('coffer mcp show remote');
  });

  it('never leaves a message empty', () => {
    const error = fromSdkError(new Error(''), context) as CofferError;
    expect(error.message).toBe('Upstream "remote" failed: Error');
  });
});
