import type { JsonObject } from '../../../domain/ports.js';
import { capabilityKinds } from '../../capability-kinds.js';
import type { ListingCatalog } from '../../lean-mode.js';
import type { ListAnswers } from '../../list-answers.js';
import { pageOf } from '../../list-paging.js';
import type { RequestHandler } from '../method-table.js';

/**
 * tools/list, prompts/list, resources/list and resources/templates/list: the whole list
 * in one page from the session's catalog (the same result object while unchanged, see
 * ListAnswers); a request with a cursor, from a client that kept one, gets that page.
 */
export function listHandlers(
  lists: ListAnswers,
  catalog: ListingCatalog,
): (readonly [string, RequestHandler])[] {
  return Object.values(capabilityKinds).map((kind) => {
    const handler: RequestHandler = async (params: JsonObject | undefined) =>
      params?.['cursor'] === undefined
        ? lists.answer(kind.listMethod)
        : pageOf(kind.field, await catalog.list(kind), params);
    return [kind.listMethod, handler] as const;
  });
}
