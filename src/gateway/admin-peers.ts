import type { UpstreamPeer } from '../domain/ports.js';
import { UpstreamRpcError } from '../domain/ports.js';
import { LIST_CHANGED } from './capability-kinds.js';

const listChanged = new Set(LIST_CHANGED);

/**
 * The client side of the admin catalog's upstream connections. No client is behind them,
 * so an upstream's requests (sampling, elicitation, roots) are refused; of its
 * notifications only a list change matters, and only as news for the UI (the admin lists
 * are read live). What one server says in one tick is one announcement: a server often
 * changes its tools, prompts and resources together, and sessions coalesce their
 * clients' list_changed the same way.
 */
export class AdminPeers {
  private readonly due = new Set<string>();

  constructor(private readonly onListsChanged: (server: string) => void) {}

  for(server: string): UpstreamPeer {
    return {
      // Said so the user reads why: a server's tool relays this message into its error,
      // which is what "Try a tool" shows.
      request: (method) =>
        Promise.reject(
          new UpstreamRpcError(
            -32601,
            `Method not found: ${method}: Coffer's own connection (its web UI, "Try a tool") has no agent to answer it; call the tool from an agent`,
          ),
        ),
      notify: (method) => {
        if (listChanged.has(method)) this.listsChanged(server);
      },
    };
  }

  private listsChanged(server: string): void {
    if (this.due.has(server)) return;
    this.due.add(server);
    queueMicrotask(() => {
      this.due.delete(server);
      this.onListsChanged(server);
    });
  }
}
