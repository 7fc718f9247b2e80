import { chmodSync, lstatSync, unlinkSync } from 'node:fs';
import { createServer, type Server, type Socket } from 'node:net';
import type { Logger } from '../observability/logger.js';

export interface SocketListener {
  readonly path: string;
  /** Stops accepting, ends every connection, removes the socket file. */
  close(): Promise<void>;
}

const isPipe = (path: string): boolean => path.startsWith('\\\\.\\pipe\\');

/** A socket file left by a daemon that died: nothing listens on it, so it is removed. */
function removeStale(path: string): void {
  if (isPipe(path)) return;
  try {
    if (lstatSync(path).isSocket()) unlinkSync(path);
  } catch {
    // absent: nothing to remove
  }
}

function listen(server: Server, path: string): Promise<void> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(path, () => {
      server.off('error', reject);
      resolve();
    });
  });
}

/**
 * The daemon's local socket (or Windows named pipe) for the shim's persistent channel.
 * Only this user may connect (mode 0600 inside the 0700 home); the hello's token is
 * checked as well, since a socket moved to the temporary directory has no private parent.
 */
export async function listenOnSocket(
  path: string,
  onConnection: (socket: Socket) => void,
  logger: Logger,
): Promise<SocketListener> {
  removeStale(path);
  const connections = new Set<Socket>();
  const server = createServer((socket) => {
    connections.add(socket);
    socket.once('close', () => connections.delete(socket));
    onConnection(socket);
  });
  await listen(server, path);
  if (!isPipe(path)) chmodSync(path, 0o600);
  server.on('error', (error) => logger.warn({ err: error }, 'socket channel listener error'));
  logger.info({ socket: path }, 'socket channel listening');
  return {
    path,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        for (const socket of connections) socket.destroy();
        // server.close removes the file on POSIX; a crash before it leaves it for removeStale.
      }),
  };
}
