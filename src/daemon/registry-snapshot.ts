import type { ServerRepository } from '../domain/ports.js';
import type { ServerRecord } from '../domain/server-definition.js';

/**
 * The registered servers as the gateway reads them on every aggregated list: loaded
 * once, kept until the API says the registry changed. Also gives `coffer status` a
 * synchronous view of the last load.
 */
export class RegistrySnapshot {
  private loading: Promise<ServerRecord[]> | undefined;
  private last: readonly ServerRecord[] = [];

  constructor(private readonly servers: ServerRepository) {}

  async enabled(only?: string): Promise<ServerRecord[]> {
    const all = await this.all();
    return all.filter((server) => server.enabled && (only === undefined || server.name === only));
  }

  all(): Promise<ServerRecord[]> {
    this.loading ??= this.servers.list().then((list) => {
      this.last = list;
      return list;
    });
    return this.loading;
  }

  /** The servers as of the last load (for status, which must not wait). */
  latest(): readonly ServerRecord[] {
    return this.last;
  }

  invalidate(): void {
    this.loading = undefined;
    void this.all().catch(() => undefined);
  }
}
