import type { UpstreamPool } from '../../upstream-pool.js';
import type { NotificationHandler } from '../method-table.js';

/** The client's roots changed: every live upstream of the session may have asked for them. */
export function rootsChangedHandler(pool: UpstreamPool): NotificationHandler {
  return () => {
    void (async () => {
      for (const connection of await pool.live()) {
        await connection
          .notify('notifications/roots/list_changed', undefined)
          .catch(() => undefined);
      }
    })();
  };
}
