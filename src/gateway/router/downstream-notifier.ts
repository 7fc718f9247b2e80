import type { JsonObject } from '../../domain/ports.js';
import type { RequestId } from './method-table.js';
import type { SendToClient } from './message-router.js';

/**
 * Notifications to the client of one session. A bare list_changed is coalesced: ten
 * toggles in one tick reach the client as one notification per list (the SDK Server's
 * debounced notifications did the same).
 */
export class DownstreamNotifier {
  private readonly due = new Set<string>();

  constructor(
    private readonly send: SendToClient,
    private readonly coalesced: ReadonlySet<string>,
  ) {}

  notify(method: string, params?: JsonObject, relatedRequestId?: RequestId): void {
    if (params === undefined && relatedRequestId === undefined && this.coalesced.has(method)) {
      if (this.due.has(method)) return;
      this.due.add(method);
      queueMicrotask(() => {
        this.due.delete(method);
        this.deliver(method, undefined, undefined);
      });
      return;
    }
    this.deliver(method, params, relatedRequestId);
  }

  private deliver(
    method: string,
    params: JsonObject | undefined,
    related: RequestId | undefined,
  ): void {
    const message =
      params === undefined
        ? { jsonrpc: '2.0' as const, method }
        : { jsonrpc: '2.0' as const, method, params };
    void this.send(message, related).catch(() => undefined);
  }
}
