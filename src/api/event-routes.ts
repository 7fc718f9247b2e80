import { Hono } from 'hono';
import { streamSSE, type SSEStreamingApi } from 'hono/streaming';
import { CofferError } from '../domain/errors.js';
import type { DaemonEvent } from '../domain/ports.js';
import type { ApiServices } from './api-services.js';

/** Proxies and idle timers drop a silent connection; a comment line every so often keeps it. */
export const KEEPALIVE_MS = 15_000;
/** What the browser waits before reconnecting after the daemon went away. */
const RETRY_MS = 3_000;
/** A client that stopped reading is dropped rather than buffered for without bound. */
const MAX_PENDING_WRITES = 1_000;

/** Writes in order, one at a time; gives up on a client that is this far behind. */
function orderedWriter(stream: SSEStreamingApi, onOverflow: () => void) {
  let chain: Promise<unknown> = Promise.resolve();
  let pending = 0;
  return (write: () => Promise<unknown>): void => {
    if (pending >= MAX_PENDING_WRITES) {
      onOverflow();
      return;
    }
    pending += 1;
    chain = chain
      .then(write)
      .catch(() => onOverflow())
      .finally(() => {
        pending -= 1;
      });
  };
}

/**
 * GET /events: server-sent events for the web UI. Each message is one DaemonEvent as
 * JSON in `data` (its `type` inside), plus a first `{"type":"ready"}` so a client knows
 * it is listening before it changes anything. The stream ends when the client leaves
 * or the daemon shuts down.
 */
export function eventRoutes(services: ApiServices): Hono {
  const app = new Hono();

  app.get('/events', (c) => {
    const events = services.events;
    if (events === undefined) throw new CofferError('NOT_FOUND', 'This daemon sends no events');
    c.header('cache-control', 'no-store');
    return streamSSE(c, async (stream) => {
      let finish = (): void => undefined;
      const finished = new Promise<void>((resolve) => (finish = resolve));
      const write = orderedWriter(stream, () => finish());
      let id = 0;
      const send = (event: DaemonEvent): void =>
        write(() => stream.writeSSE({ id: String((id += 1)), data: JSON.stringify(event) }));
      const unsubscribe = events.subscribe(send, () => finish());
      stream.onAbort(() => finish());
      const keepalive = setInterval(
        () => write(() => stream.write(': keepalive\n\n')),
        KEEPALIVE_MS,
      );
      write(() => stream.writeSSE({ data: JSON.stringify({ type: 'ready' }), retry: RETRY_MS }));
      try {
        await finished;
      } finally {
        clearInterval(keepalive);
        unsubscribe();
      }
    });
  });

  return app;
}
