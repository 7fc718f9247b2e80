import { join } from 'node:path';
import { repoRoot } from './running-daemon.js';

/** `@modelcontextprotocol/server-everything`'s entry point: the reference server tests relay. */
export const everythingServer = join(
  repoRoot,
  'node_modules/@modelcontextprotocol/server-everything/dist/index.js',
);

/** The REST API of either harness: RunningDaemon (here) or the shim tests' CofferHome. */
interface DaemonApi {
  api(method: string, path: string, body?: unknown): Promise<{ status: number; body: unknown }>;
}

/**
 * Registers server-everything over stdio as `name` (its tools are then `<name>__echo`, …);
 * anything but 201 fails the test with the daemon's answer.
 */
export async function addEverything(daemon: DaemonApi, name = 'everything'): Promise<void> {
  const added = await daemon.api('POST', '/servers', {
    name,
    transport: 'stdio',
    command: process.execPath,
    args: [everythingServer, 'stdio'],
  });
  if (added.status !== 201)
    throw new Error(`adding ${name} answered ${added.status}: ${JSON.stringify(added.body)}`);
}
