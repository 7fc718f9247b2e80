import { CofferError } from '../domain/errors.js';
import type { ServerRepository } from '../domain/ports.js';
import type { ServerRecord } from '../domain/server-definition.js';

export function serverNotFound(name: string): CofferError {
  return new CofferError('SERVER_NOT_FOUND', `No server named "${name}"`, {
    hint: 'see `coffer mcp list` for the registered servers',
    data: { server: name },
  });
}

export async function requireServer(
  servers: ServerRepository,
  name: string,
): Promise<ServerRecord> {
  const record = await servers.get(name);
  if (record === undefined) throw serverNotFound(name);
  return record;
}
