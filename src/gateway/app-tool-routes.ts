import type { JsonObject } from '../domain/ports.js';
import type { ServerRecord } from '../domain/server-definition.js';
import { opensApp } from './mcp-apps.js';

/**
 * The tool keys of each server that serves MCP Apps (docs/APPS.md). An app's own page
 * calls its server's tools by their upstream names (`callServerTool`), and the host relays
 * the call to Coffer as it is: such a name routes to the one app server that has it.
 */
export class AppToolRoutes {
  private readonly appTools = new Map<string, { server: ServerRecord; keys: Set<string> }>();

  /** A tool list of `server` was loaded: its keys route app calls while it opens an app. */
  noteList(
    server: ServerRecord,
    items: readonly JsonObject[],
    keyOf: (item: JsonObject) => string,
  ): void {
    if (!items.some(opensApp)) {
      this.appTools.delete(server.name);
      return;
    }
    this.appTools.set(server.name, { server, keys: new Set(items.map(keyOf)) });
  }

  /** An upstream tool name that exactly one app server has; undefined otherwise. */
  route(name: string): { readonly server: ServerRecord; readonly key: string } | undefined {
    const owners = [...this.appTools.values()].filter((entry) => entry.keys.has(name));
    const owner = owners.length === 1 ? owners[0] : undefined;
    return owner === undefined ? undefined : { server: owner.server, key: name };
  }

  /** Forgets one server's tools, or every server's. */
  forget(server?: string): void {
    if (server === undefined) this.appTools.clear();
    else this.appTools.delete(server);
  }
}
