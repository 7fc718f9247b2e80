import { closestName } from '../domain/closest-name.js';
import { CofferError } from '../domain/errors.js';
import type { ServerRepository } from '../domain/ports.js';

/**
 * A SERVER_NOT_FOUND for a mistyped name (`coffer mcp show fixtur`) names the server the
 * user most likely meant, as a mistyped tool name does. Done once, where every route's
 * error is answered: the store, the catalog and the routes each throw their own.
 */
export async function withNearestServer(
  thrown: unknown,
  servers: ServerRepository,
): Promise<unknown> {
  if (!(thrown instanceof CofferError) || thrown.code !== 'SERVER_NOT_FOUND') return thrown;
  const wanted = thrown.data?.['server'];
  if (typeof wanted !== 'string') return thrown;
  // The error must still be answered if the list itself fails.
  const names = await servers.list().then(
    (records) => records.map((record) => record.name),
    () => [],
  );
  const meant = closestName(wanted, names);
  if (meant === undefined) return thrown;
  const otherwise = thrown.hint === undefined ? '' : ` Otherwise ${thrown.hint}`;
  return new CofferError('SERVER_NOT_FOUND', thrown.message, {
    hint: `did you mean "${meant}"?${otherwise}`,
    data: { ...thrown.data, did_you_mean: meant },
    cause: thrown,
  });
}
