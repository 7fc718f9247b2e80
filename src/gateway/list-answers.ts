import type { JsonObject } from '../domain/ports.js';
import { kindByListMethod } from './capability-kinds.js';
import type { ListingCatalog } from './lean-mode.js';
import type { SerializedResults } from './serialized-results.js';

/**
 * A session's answers to list requests without a cursor: the whole list in one page, and
 * the very same result object while the list is unchanged, so its serialisation is
 * reused (SerializedResults). The catalog hands back the same item objects until a list
 * is reloaded (TTL, list_changed, a preference change), which is what "unchanged" means
 * here.
 */
export class ListAnswers {
  private readonly last = new Map<string, { items: JsonObject[]; result: JsonObject }>();

  constructor(
    private readonly catalog: ListingCatalog,
    private readonly results: SerializedResults,
  ) {}

  async answer(method: string): Promise<JsonObject> {
    const kind = kindByListMethod.get(method);
    if (kind === undefined) throw new Error(`not a list method: ${method}`);
    const items = await this.catalog.list(kind);
    const last = this.last.get(method);
    if (last !== undefined && sameElements(last.items, items)) return last.result;
    const result: JsonObject = { [kind.field]: items };
    this.results.keep(result);
    this.last.set(method, { items, result });
    return result;
  }
}

function sameElements(a: readonly unknown[], b: readonly unknown[]): boolean {
  return a === b || (a.length === b.length && a.every((value, index) => value === b[index]));
}
