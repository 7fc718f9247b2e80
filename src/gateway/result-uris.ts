import type { JsonObject } from '../domain/ports.js';
import type { Namespace } from './namespace.js';

/**
 * A result whose `field` is a list of items each with its own `uri` (a read's `contents`,
 * a directory read's `resources`): every such URI exposed, the rest relayed as it is.
 */
export function exposeItemUris(
  field: string,
): (result: JsonObject, server: string, namespace: Namespace) => JsonObject {
  return (result, server, namespace) => {
    const items = result[field];
    if (!Array.isArray(items)) return result;
    return { ...result, [field]: items.map((item) => exposeItemUri(item, server, namespace)) };
  };
}

/** An item's own `uri` field exposed (a read's content, a skill's file, a directory's child). */
export function exposeItemUri(item: unknown, server: string, namespace: Namespace): unknown {
  if (!isObject(item) || typeof item['uri'] !== 'string') return item;
  return { ...item, uri: namespace.expose(server, 'resource', item['uri']) };
}

/**
 * Rewrites resource URIs inside a tool or prompt result so the client can read them
 * back through Coffer: `resource_link` items and embedded `resource` contents. Only
 * the `uri` fields change; every other field is relayed untouched.
 */
export function exposeResultUris(
  result: JsonObject,
  server: string,
  namespace: Namespace,
): JsonObject {
  const content = result['content'];
  const messages = result['messages'];
  if (Array.isArray(content)) {
    return { ...result, content: content.map((item) => exposeContent(item, server, namespace)) };
  }
  if (Array.isArray(messages)) {
    return { ...result, messages: messages.map((m) => exposeMessage(m, server, namespace)) };
  }
  return result;
}

function exposeMessage(message: unknown, server: string, namespace: Namespace): unknown {
  if (!isObject(message)) return message;
  return { ...message, content: exposeContent(message['content'], server, namespace) };
}

function exposeContent(item: unknown, server: string, namespace: Namespace): unknown {
  if (!isObject(item)) return item;
  if (item['type'] === 'resource_link' && typeof item['uri'] === 'string') {
    return { ...item, uri: namespace.expose(server, 'resource', item['uri']) };
  }
  const resource = item['resource'];
  if (item['type'] === 'resource' && isObject(resource) && typeof resource['uri'] === 'string') {
    return {
      ...item,
      resource: { ...resource, uri: namespace.expose(server, 'resource', resource['uri']) },
    };
  }
  return item;
}

function isObject(value: unknown): value is JsonObject {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}
