import { getEventListeners } from 'node:events';
import { describe, expect, it } from 'vitest';
import { modernHttpFetch } from '../../../src/upstream/modern-http-fetch.js';
import { withOwnSignals } from '../../../src/upstream/request-signal.js';
import { undiciLikeFetch } from './undici-like-fetch.js';

const envelope = {
  'io.modelcontextprotocol/protocolVersion': '2026-07-28',
  'io.modelcontextprotocol/clientCapabilities': {},
  'io.modelcontextprotocol/clientInfo': { name: 'coffer', version: '9' },
};

function post(message: object): RequestInit {
  return { method: 'POST', body: JSON.stringify({ jsonrpc: '2.0', ...message }) };
}

const cancel = (requestId: number) =>
  post({ method: 'notifications/cancelled', params: { requestId, reason: 'client cancelled' } });

/**
 * A server that answers each POST with an SSE stream it never ends on its own, and
 * records which POSTs reached it and which were aborted.
 */
function streamingServer() {
  const posted: string[] = [];
  const aborted: string[] = [];
  const base = (_url: string | URL, init?: RequestInit) => {
    const body = typeof init?.body === 'string' ? init.body : '';
    posted.push(body);
    const stream = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(new TextEncoder().encode(': open\n\n'));
        init?.signal?.addEventListener('abort', () => {
          aborted.push(body);
          controller.error(new DOMException('aborted', 'AbortError'));
        });
      },
    });
    return Promise.resolve(
      new Response(stream, { headers: { 'content-type': 'text/event-stream' } }),
    );
  };
  return { base, posted, aborted };
}

async function readAll(response: Response): Promise<string> {
  return new Response(response.body).text();
}

describe('modernHttpFetch: cancellation by closing the request', () => {
  it("closes a 2026-07-28 request's POST instead of posting notifications/cancelled", async () => {
    const server = streamingServer();
    const fetch = modernHttpFetch(server.base);
    const call = { id: 7, method: 'tools/call', params: { name: 'wait', _meta: envelope } };
    const response = await fetch('u', post(call));
    const body = readAll(response);
    const notified = await fetch('u', cancel(7));
    expect(notified.status).toBe(202);
    // The stream ends without an error: an error would read as a broken connection.
    await expect(body).resolves.toBe(': open\n\n');
    expect(server.aborted).toHaveLength(1);
    expect(server.posted).toHaveLength(1);
  });

  it('posts notifications/cancelled for a 2025 request, or one no longer open', async () => {
    const server = streamingServer();
    const fetch = modernHttpFetch(server.base);
    await fetch('u', post({ id: 1, method: 'tools/call', params: { name: 'slow' } }));
    await fetch('u', cancel(1));
    await fetch('u', cancel(99));
    expect(server.aborted).toEqual([]);
    expect(server.posted.filter((body) => body.includes('notifications/cancelled'))).toHaveLength(
      2,
    );
  });

  it('forgets a request once its answer has been read', async () => {
    const fetch = modernHttpFetch(() => Promise.resolve(Response.json({ result: {} })));
    const response = await fetch(
      'u',
      post({ id: 3, method: 'tools/list', params: { _meta: envelope } }),
    );
    await response.json();
    const notified = await fetch('u', cancel(3));
    expect(notified.status).toBe(200);
  });

  it("keeps the transport's own signal: closing the transport still aborts the POST", async () => {
    const server = streamingServer();
    const fetch = modernHttpFetch(server.base);
    const closing = new AbortController();
    const call = { id: 4, method: 'tools/call', params: { name: 'wait', _meta: envelope } };
    const response = await fetch('u', { ...post(call), signal: closing.signal });
    const body = readAll(response);
    closing.abort();
    await expect(body).rejects.toThrow();
    expect(server.aborted).toHaveLength(1);
  });

  it("lets go of the transport's signal once each answer is read, in either era", async () => {
    // Node's fetch, as the default under modernHttpFetch hands it a request (node-http-fetch.ts).
    const fetch = modernHttpFetch(withOwnSignals(undiciLikeFetch().base));
    const transport = new AbortController();
    for (let id = 1; id <= 200; id++) {
      const params = id % 2 === 0 ? { name: 'echo', _meta: envelope } : { name: 'echo' };
      const response = await fetch('u', {
        ...post({ id, method: 'tools/call', params }),
        signal: transport.signal,
      });
      await response.json();
    }
    const initialized = post({ method: 'notifications/initialized' });
    // As the SDK transport does with the answer to a notification: it never reads it.
    await (await fetch('u', { ...initialized, signal: transport.signal })).body?.cancel();
    expect(getEventListeners(transport.signal, 'abort')).toHaveLength(0);
  });
});
