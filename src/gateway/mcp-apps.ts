import type { JsonObject } from '../domain/ports.js';
import type { Namespace } from './namespace.js';

/**
 * MCP Apps (extension io.modelcontextprotocol/ui, docs/APPS.md): a tool names its app,
 * a `ui://` resource, in `_meta.ui.resourceUri`, and older hosts read the same URI from
 * the legacy `_meta["ui/resourceUri"]`. Hosts render only the resource the tool names,
 * so both must name it as the session lists it. The rest of the tool, of its `_meta` and
 * of `_meta.ui` (visibility, …) is the app's business: relayed untouched.
 */
export const LEGACY_APP_URI_KEY = 'ui/resourceUri';

/** The tool with its app URIs exposed; the same object when it names no app. */
export function exposeAppLinks(tool: JsonObject, server: string, namespace: Namespace): JsonObject {
  const meta = tool['_meta'];
  if (!isObject(meta)) return tool;
  const expose = (uri: string) => namespace.expose(server, 'resource', uri);
  let exposed = meta;
  const ui = meta['ui'];
  if (isObject(ui) && typeof ui['resourceUri'] === 'string') {
    const resourceUri = expose(ui['resourceUri']);
    if (resourceUri !== ui['resourceUri']) exposed = { ...exposed, ui: { ...ui, resourceUri } };
  }
  const legacy = meta[LEGACY_APP_URI_KEY];
  if (typeof legacy === 'string' && expose(legacy) !== legacy) {
    exposed = { ...exposed, [LEGACY_APP_URI_KEY]: expose(legacy) };
  }
  return exposed === meta ? tool : { ...tool, _meta: exposed };
}

/** Whether a tool (as its upstream lists it) opens an app. */
export function opensApp(tool: JsonObject): boolean {
  const meta = tool['_meta'];
  if (!isObject(meta)) return false;
  const ui = meta['ui'];
  return (
    (isObject(ui) && typeof ui['resourceUri'] === 'string') ||
    typeof meta[LEGACY_APP_URI_KEY] === 'string'
  );
}

function isObject(value: unknown): value is JsonObject {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}
