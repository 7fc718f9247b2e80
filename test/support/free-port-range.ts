import { createServer } from 'node:net';

/** True when nothing listens on 127.0.0.1:port right now. */
export function isPortFree(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = createServer();
    server.once('error', () => resolve(false));
    server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)));
  });
}

/**
 * A block of free loopback ports for one test's daemon, as `COFFER_PORT_RANGE`. Random
 * blocks keep parallel test files out of each other's way.
 */
export async function freePortRange(size = 3): Promise<{ lo: number; hi: number; env: string }> {
  for (let attempt = 0; attempt < 50; attempt++) {
    const lo = 20_000 + Math.floor(Math.random() * 40_000);
    const ports = Array.from({ length: size }, (_, i) => lo + i);
    const free = await Promise.all(ports.map(isPortFree));
    if (free.every(Boolean)) return { lo, hi: lo + size - 1, env: `${lo}-${lo + size - 1}` };
  }
  throw new Error('no free port range found');
}
