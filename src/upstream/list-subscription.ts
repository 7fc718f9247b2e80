/**
 * How a modern (2026-07-28) upstream's list changes reach Coffer: there is no session to
 * send unsolicited `list_changed` on, so Coffer opens one long-lived `subscriptions/listen`
 * request naming the lists the server says can change. The server acknowledges it, then
 * sends `notifications/<kind>/list_changed` tagged with the subscription's id, which the
 * connection hands to its peer like a 2025 notification (so the list caches drop them).
 */
import type { JsonObject } from '../domain/ports.js';
import { isObject } from './jsonrpc-envelope.js';
import { META } from '../domain/mcp-envelope.js';

export const SUBSCRIPTION_ACKNOWLEDGED = 'notifications/subscriptions/acknowledged';

const filterKeys = {
  tools: 'toolsListChanged',
  prompts: 'promptsListChanged',
  resources: 'resourcesListChanged',
} as const;

/** The `notifications` filter for the lists this server declares `listChanged` on; undefined: none. */
export function listChangeFilter(capabilities: JsonObject): JsonObject | undefined {
  const filter: JsonObject = {};
  for (const [kind, key] of Object.entries(filterKeys)) {
    const capability = capabilities[kind];
    if (isObject(capability) && capability['listChanged'] === true) filter[key] = true;
  }
  return Object.keys(filter).length === 0 ? undefined : filter;
}

/**
 * Opens the subscription (through `listen`, which sends it); it stays open for the
 * connection's life, and its end (the connection closed, the server ended it) is
 * nobody's error.
 */
export function listenForListChanges(
  capabilities: JsonObject,
  listen: (params: JsonObject) => void,
): void {
  const notifications = listChangeFilter(capabilities);
  if (notifications !== undefined) listen({ notifications });
}

/** A notification's params without the subscription tag (the client never subscribed). */
export function untagged(params: JsonObject | undefined): JsonObject | undefined {
  const meta = params?.['_meta'];
  if (params === undefined || !isObject(meta) || !(META.subscriptionId in meta)) return params;
  const rest = Object.fromEntries(
    Object.entries(meta).filter(([key]) => key !== META.subscriptionId),
  );
  const others = Object.fromEntries(Object.entries(params).filter(([key]) => key !== '_meta'));
  return Object.keys(rest).length === 0 ? others : { ...others, _meta: rest };
}
