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
 * Where tests pick the ports a daemon binds later: below the ephemeral range (Linux 32768+,
 * macOS 49152+), where the OS hands out ports for outgoing connections and `listen(0)`. A port
 * found free there could be taken by any connection before the daemon binds it; down here only
 * another test's random pick can, which the daemon's walk through its range absorbs.
 */
export const TEST_PORTS = { lo: 18_000, hi: 32_000 } as const;

/**
 * A block of free loopback ports for one test's daemon, as `COFFER_PORT_RANGE`. Random
 * blocks keep parallel test files out of each other's way.
 */
export async function freePortRange(size = 3): Promise<{ lo: number; hi: number; env: string }> {
  for (let attempt = 0; attempt < 50; attempt++) {
    const lo = TEST_PORTS.lo + Math.floor(Math.random() * (TEST_PORTS.hi - TEST_PORTS.lo));
    const ports = Array.from({ length: size }, (_, i) => lo + i);
    const free = await Promise.all(ports.map(isPortFree));
    if (free.every(Boolean)) return { lo, hi: lo + size - 1, env: `${lo}-${lo + size - 1}` };
  }
  throw new Error('no free port range found');
}

/**
 * One free port for a server a test restarts on the same port (after a kill): a port from
 * `listen(0)` is in the ephemeral range, where an outgoing connection can take it between
 * the kill and the new bind (EADDRINUSE on a busy machine).
 */
export async function freeRestartPort(): Promise<number> {
  return (await freePortRange(1)).lo;
}
