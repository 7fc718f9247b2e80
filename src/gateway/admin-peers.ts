import type { Schedule, UpstreamPeer } from '../domain/ports.js';
import { systemSchedule, UpstreamRpcError } from '../domain/ports.js';
import { LIST_CHANGED } from './capability-kinds.js';

const listChanged = new Set(LIST_CHANGED);

/**
 * How long a server's list changes are held once a relist they caused found nothing new:
 * longer after each such relist in a row, back to none after a relist that found a change.
 */
export const QUIET_MS = [1_000, 2_000, 4_000, 8_000, 16_000, 30_000] as const;

/** What is known of one server's announcements. */
interface Quiet {
  /** What its last listing held (AdminCatalog's fingerprint). */
  fingerprint?: string;
  /** An announcement went out that no listing has answered yet. */
  announced: boolean;
  /** Relists after an announcement, in a row, that found the lists as they were. */
  unchanged: number;
  /** Listings of it under way: a change heard now may be the echo of one. */
  listing: number;
  /** A change heard while held, said when the hold ends. */
  heard: boolean;
  cancelHold?: (() => void) | undefined;
}

export interface AdminPeersOptions {
  /** A server's lists changed: the UI lists them again. */
  readonly onListsChanged: (server: string) => void;
  readonly schedule?: Schedule;
}

/**
 * The client side of the admin catalog's upstream connections. No client is behind them,
 * so an upstream's requests (sampling, elicitation, roots) are refused; of its
 * notifications only a list change matters, and only as news for the UI (the admin lists
 * are read live). What one server says in one tick is one announcement: a server often
 * changes its tools, prompts and resources together.
 *
 * Some servers announce a change after every listing (an echo): the UI would list, hear
 * of a change, list again, for as long as the page is open. A relist that finds the lists
 * as they were holds that server's announcements for a while (QUIET_MS), so such a server
 * is listed about once per hold; what is heard meanwhile is said when the hold ends.
 */
export class AdminPeers {
  private readonly quiet = new Map<string, Quiet>();
  private readonly due = new Set<string>();

  constructor(private readonly options: AdminPeersOptions) {}

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
        if (listChanged.has(method)) this.heard(server);
      },
    };
  }

  /** A listing of `server` begins; call what it returns with the fingerprint of what it listed. */
  listing(server: string): (fingerprint: string) => void {
    const quiet = this.of(server);
    quiet.listing += 1;
    return (fingerprint) => {
      quiet.listing -= 1;
      this.listed(server, quiet, fingerprint);
    };
  }

  /** Its connection was dropped on purpose (a refresh, a redefinition): start afresh. */
  forget(server: string): void {
    this.quiet.get(server)?.cancelHold?.();
    this.quiet.delete(server);
  }

  close(): void {
    for (const server of [...this.quiet.keys()]) this.forget(server);
  }

  private listed(server: string, quiet: Quiet, fingerprint: string): void {
    const same = quiet.fingerprint === fingerprint;
    quiet.fingerprint = fingerprint;
    if (!same) quiet.unchanged = 0;
    else if (quiet.announced) {
      // Its news was not news: hold the next, which its echo may already be (or soon).
      quiet.unchanged += 1;
      if (quiet.cancelHold === undefined) this.hold(server, quiet);
    }
    quiet.announced = false;
    if (quiet.heard && quiet.cancelHold === undefined && quiet.listing === 0)
      this.announce(server, quiet);
  }

  private heard(server: string): void {
    const quiet = this.of(server);
    if (quiet.cancelHold !== undefined || quiet.listing > 0) {
      quiet.heard = true;
      return;
    }
    this.announce(server, quiet);
  }

  private hold(server: string, quiet: Quiet): void {
    const ms = QUIET_MS[Math.min(quiet.unchanged, QUIET_MS.length) - 1] ?? QUIET_MS[0];
    quiet.cancelHold = (this.options.schedule ?? systemSchedule)(() => {
      quiet.cancelHold = undefined;
      if (quiet.heard && quiet.listing === 0) this.announce(server, quiet);
    }, ms);
  }

  private announce(server: string, quiet: Quiet): void {
    quiet.heard = false;
    if (this.due.has(server)) return;
    this.due.add(server);
    queueMicrotask(() => {
      this.due.delete(server);
      quiet.announced = true;
      this.options.onListsChanged(server);
    });
  }

  private of(server: string): Quiet {
    let quiet = this.quiet.get(server);
    if (quiet === undefined) {
      quiet = { announced: false, unchanged: 0, listing: 0, heard: false };
      this.quiet.set(server, quiet);
    }
    return quiet;
  }
}
