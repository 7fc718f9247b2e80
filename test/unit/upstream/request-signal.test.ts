import { getEventListeners } from 'node:events';
import { describe, expect, it } from 'vitest';
import { RequestSignal, withOwnSignals } from '../../../src/upstream/request-signal.js';
import { undiciLikeFetch } from './undici-like-fetch.js';

const post = (body = '{}'): RequestInit => ({ method: 'POST', body });

describe('RequestSignal', () => {
  it("follows the transport's signal until released, then lets go of it", () => {
    const transport = new AbortController();
    const followed = new RequestSignal(transport.signal);
    const released = new RequestSignal(transport.signal);
    expect(getEventListeners(transport.signal, 'abort')).toHaveLength(2);
    released.release();
    expect(getEventListeners(transport.signal, 'abort')).toHaveLength(1);
    transport.abort(new Error('closed'));
    expect(followed.signal.aborted).toBe(true);
    expect(followed.cancelled).toBe(false);
    expect(released.signal.aborted).toBe(false);
  });

  it('starts aborted under an aborted transport, and stands alone without one', () => {
    const transport = new AbortController();
    transport.abort(new Error('closed'));
    expect(new RequestSignal(transport.signal).signal.aborted).toBe(true);
    expect(new RequestSignal(undefined).signal.aborted).toBe(false);
  });

  it('cancels one POST, marked as cancelled, leaving the transport alone', () => {
    const transport = new AbortController();
    const one = new RequestSignal(transport.signal);
    one.cancel(new Error('cancelled by the client'));
    expect(one.signal.aborted).toBe(true);
    expect(one.cancelled).toBe(true);
    expect(transport.signal.aborted).toBe(false);
  });
});

describe('withOwnSignals', () => {
  it("leaves no listener on the transport's signal once each answer is read", async () => {
    const transport = new AbortController();
    const server = undiciLikeFetch();
    const fetch = withOwnSignals(server.base);
    for (let i = 0; i < 2_000; i++) {
      const response = await fetch('u', { ...post(), signal: transport.signal });
      await response.json();
    }
    expect(getEventListeners(transport.signal, 'abort')).toHaveLength(0);
    // Each request had its own signal for the fetch to hold on to.
    expect(new Set(server.given).size).toBe(2_000);
    expect(server.given).not.toContain(transport.signal);
  });

  it('lets go when the reader cancels the body, the body is empty, or the fetch fails', async () => {
    const transport = new AbortController();
    const init = { ...post(), signal: transport.signal };
    const streaming = withOwnSignals(undiciLikeFetch(() => new Response('data: x\n\n')).base);
    await (await streaming('u', init)).body?.cancel();
    const empty = withOwnSignals(undiciLikeFetch(() => new Response(null, { status: 202 })).base);
    await empty('u', init);
    const failing = withOwnSignals(() => Promise.reject(new TypeError('fetch failed')));
    await expect(failing('u', init)).rejects.toThrow('fetch failed');
    expect(getEventListeners(transport.signal, 'abort')).toHaveLength(0);
  });

  it('still aborts a POST whose answer is streaming when the transport closes', async () => {
    const transport = new AbortController();
    let aborted = 0;
    const base = (_url: string | URL, init?: RequestInit) => {
      const stream = new ReadableStream<Uint8Array>({
        start(controller) {
          controller.enqueue(new TextEncoder().encode(': open\n\n'));
          init?.signal?.addEventListener('abort', () => {
            aborted++;
            controller.error(new DOMException('aborted', 'AbortError'));
          });
        },
      });
      return Promise.resolve(new Response(stream));
    };
    const response = await withOwnSignals(base)('u', { ...post(), signal: transport.signal });
    const body = response.text();
    transport.abort(new Error('closed'));
    await expect(body).rejects.toThrow('aborted');
    expect(aborted).toBe(1);
  });

  it('gives a GET stream its own signal too, and passes a request without one untouched', async () => {
    const transport = new AbortController();
    const server = undiciLikeFetch(() => new Response('data: x\n\n'));
    const fetch = withOwnSignals(server.base);
    const stream = await fetch('u', { method: 'GET', signal: transport.signal });
    expect(server.given[0]).not.toBe(transport.signal);
    expect(getEventListeners(transport.signal, 'abort')).toHaveLength(1);
    await stream.text();
    expect(getEventListeners(transport.signal, 'abort')).toHaveLength(0);
    await fetch('u', { method: 'POST', body: '{}' });
    expect(server.given).toHaveLength(1);
  });
});
