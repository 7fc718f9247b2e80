import type { Server } from 'node:http';
import { DAEMON_HOST } from '../discovery/daemon-record.js';
import { CofferError } from '../domain/errors.js';
import { formatPortRange, PORT_RANGE_ENV, type PortRange } from './port-range.js';

function listenOnce(server: Server, port: number): Promise<void> {
  return new Promise((resolve, reject) => {
    const onError = (error: Error): void => {
      server.off('listening', onListening);
      reject(error);
    };
    const onListening = (): void => {
      server.off('error', onError);
      resolve();
    };
    server.once('error', onError);
    server.once('listening', onListening);
    server.listen({ port, host: DAEMON_HOST, exclusive: true });
  });
}

const TAKEN = new Set(['EADDRINUSE', 'EACCES']);

/**
 * Binds `server` to the first free port of `range` on 127.0.0.1 (never another
 * interface), trying them in order. All taken → PORT_RANGE_EXHAUSTED naming the range.
 */
export async function bindFirstFreePort(server: Server, range: PortRange): Promise<number> {
  for (let port = range.first; port <= range.last; port += 1) {
    try {
      await listenOnce(server, port);
      return port;
    } catch (error) {
      if (!TAKEN.has((error as NodeJS.ErrnoException).code ?? '')) throw error;
    }
  }
  throw new CofferError(
    'PORT_RANGE_EXHAUSTED',
    `Cannot start the Coffer daemon: every port in the range ${formatPortRange(range)} on ${DAEMON_HOST} is in use`,
    { hint: `free one of them, or set ${PORT_RANGE_ENV}=lo-hi to use other ports` },
  );
}
