/**
 * The `subscriptions/listen` requests Coffer keeps open on one modern (2026-07-28)
 * upstream connection. Each is a long-lived request: the server acknowledges it with
 * `notifications/subscriptions/acknowledged` (the filter it agreed to deliver), then tags
 * every notification it sends for it with the request's id in
 * `_meta["io.modelcontextprotocol/subscriptionId"]`. A stream with a `deliver` callback
 * gets its own notifications (one session's resource updates); the others' go to the
 * connection's peer as before (list changes, which every session hears).
 */
import { UpstreamRpcError, type JsonObject } from '../domain/ports.js';
import { META } from '../domain/mcp-envelope.js';
import { isObject } from './jsonrpc-envelope.js';
import { SUBSCRIPTION_ACKNOWLEDGED, untagged } from './list-subscription.js';

export type NotificationSink = (method: string, params: JsonObject | undefined) => void;

/** One open listen request. */
export interface ListenStream {
  /** The filter the server agreed to deliver; fails when the request fails first. */
  readonly acknowledged: Promise<JsonObject>;
  /** Ends the stream: the server is told, and what it still sends for it is dropped. */
  close(): void;
}

/** What the streams need from their connection. */
export interface ListenChannel {
  /** Sends a request; its answer settles when the server ends (or refuses) the stream. */
  open(method: string, params: JsonObject): { id: number; answer: Promise<JsonObject> };
  /** Gives up on a request: fails it here and tells the server (notifications/cancelled). */
  abandon(id: number, reason: unknown): void;
}

interface Entry {
  readonly deliver: NotificationSink | undefined;
  readonly acknowledge: (filter: JsonObject) => void;
}

export class ListenStreams {
  private readonly open = new Map<number, Entry>();

  constructor(private readonly channel: ListenChannel) {}

  /** Opens a listen with `params` (its `notifications` filter, envelope stamped). */
  listen(params: JsonObject, deliver?: NotificationSink): ListenStream {
    let acknowledge!: (filter: JsonObject) => void;
    let refuse!: (error: unknown) => void;
    const acknowledged = new Promise<JsonObject>((resolve, reject) => {
      acknowledge = resolve;
      refuse = reject;
    });
    // Nobody may wait for the acknowledgement (list changes); its failure is not an error.
    acknowledged.catch(() => undefined);
    const { id, answer } = this.channel.open('subscriptions/listen', params);
    this.open.set(id, { deliver, acknowledge });
    // The request's answer ends the stream: a result is the server closing it, an error
    // is a refusal (or the connection's end). Before the acknowledgement, both fail it.
    const ended = (error: unknown) => {
      this.open.delete(id);
      refuse(error);
    };
    answer.then(
      () => ended(new UpstreamRpcError(-32603, 'The server ended the subscription')),
      ended,
    );
    return {
      acknowledged,
      close: () => {
        if (!this.open.delete(id)) return;
        this.channel.abandon(id, 'The subscription is no longer needed');
      },
    };
  }

  /**
   * A notification the streams take (an acknowledgement, one tagged for a stream that
   * delivers its own, or for one no longer open): true when taken, false for the peer.
   */
  take(method: string, params: JsonObject | undefined): boolean {
    const meta = params?.['_meta'];
    const id = isObject(meta) ? meta[META.subscriptionId] : undefined;
    if (method === SUBSCRIPTION_ACKNOWLEDGED) {
      const filter = params?.['notifications'];
      if (typeof id === 'number') this.open.get(id)?.acknowledge(isObject(filter) ? filter : {});
      return true;
    }
    if (id === undefined) return false;
    // Tagged for a stream no longer open (closed here, ended there): nobody listens.
    const entry = typeof id === 'number' ? this.open.get(id) : undefined;
    if (entry === undefined) return true;
    if (entry.deliver === undefined) return false;
    entry.deliver(method, untagged(params));
    return true;
  }
}
