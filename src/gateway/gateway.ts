import type { SessionNotifier } from '../domain/ports.js';
import type { GatewayContext } from './gateway-context.js';
import { Session, type SessionScope } from './session.js';
import type { JsonObject } from '../domain/ports.js';
import type { ToolsMode } from '../domain/tools-mode.js';

/**
 * The live downstream sessions. Implements SessionNotifier so admin changes (a toggle,
 * a removed server) reach every live session at once.
 */
export class Gateway implements SessionNotifier {
  private readonly sessions = new Map<string, Session>();
  private readonly starting = new Set<Session>();

  constructor(readonly context: GatewayContext) {}

  /** A new session for an initialize request; registered once the transport assigns its id. */
  async open(
    scope: SessionScope,
    clientCapabilities: JsonObject,
    toolsMode?: ToolsMode,
  ): Promise<Session> {
    const session = new Session({
      scope,
      context: this.context,
      clientCapabilities,
      ...(toolsMode === undefined ? {} : { toolsMode }),
      onInitialized: (s) => this.sessions.set(s.id, s),
      onClosed: (s) => {
        this.sessions.delete(s.id);
        this.starting.delete(s);
      },
    });
    this.starting.add(session);
    try {
      await session.start();
    } catch (error) {
      this.starting.delete(session);
      await session.close();
      throw error;
    }
    return session;
  }

  find(id: string): Session | undefined {
    return this.sessions.get(id);
  }

  get size(): number {
    return this.sessions.size;
  }

  capabilitiesChanged(server: string): void {
    for (const session of this.sessions.values()) session.capabilitiesChanged(server);
  }

  serversChanged(): void {
    for (const session of this.sessions.values()) session.capabilitiesChanged();
  }

  /** A server was redefined, disabled or removed: no session may keep its old connection. */
  async serverRedefined(server: string): Promise<void> {
    await Promise.all([...this.sessions.values()].map((s) => s.serverChanged(server)));
  }

  async closeAll(): Promise<void> {
    const all = [...this.sessions.values(), ...this.starting];
    this.sessions.clear();
    this.starting.clear();
    await Promise.allSettled(all.map((session) => session.close()));
  }
}
