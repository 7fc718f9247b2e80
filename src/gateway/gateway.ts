import type { SessionNotifier } from '../domain/ports.js';
import type { GatewayContext } from './gateway-context.js';
import { Session, type SessionScope, type TransportFactory } from './session.js';
import type { ReapReason } from './session-activity.js';
import { SessionReaper } from './session-reaper.js';
import { StatelessServices } from './stateless-services.js';
import { ServerInstructions } from './server-instructions.js';
import { TaskRegistry } from './task-registry.js';
import type { JsonObject } from '../domain/ports.js';
import type { ToolsMode } from '../domain/tools-mode.js';

/** Defaults of the reaper's limits when the context sets none (see src/config/settings.ts). */
const DEFAULT_IDLE_MS = 30 * 60_000;
const DEFAULT_GRACE_MS = 60_000;
const DEFAULT_MAX_SESSIONS = 1_000;

const REAP_WORDS: Readonly<Record<ReapReason, string>> = {
  idle: 'closing an idle session',
  vanished: 'closing a session whose client vanished',
  crowded: 'closing the session quiet longest: too many sessions are open',
};

/**
 * The live downstream sessions. Implements SessionNotifier so admin changes (a toggle,
 * a removed server) reach every live session at once. Sessions whose client vanished or
 * that sat idle are reaped, with their upstreams.
 */
export class Gateway implements SessionNotifier {
  private readonly sessions = new Map<string, Session>();
  private readonly starting = new Set<Session>();
  private readonly reaper: SessionReaper<Session>;
  /** What answers 2026-07-28 requests, which belong to no session. */
  readonly stateless: StatelessServices;

  readonly context: GatewayContext;

  constructor(context: GatewayContext) {
    // One task registry for all sessions: a task outlives the session that created it.
    this.context = {
      ...context,
      tasks: context.tasks ?? new TaskRegistry({ clock: context.clock }),
      // Kept in memory only when the daemon gives no file to keep it in.
      instructions: context.instructions ?? new ServerInstructions(),
    };
    this.stateless = new StatelessServices(this.context);
    this.reaper = new SessionReaper<Session>({
      idleMs: context.sessionIdleMs ?? DEFAULT_IDLE_MS,
      graceMs: context.sessionGraceMs ?? DEFAULT_GRACE_MS,
      maxSessions: context.maxSessions ?? DEFAULT_MAX_SESSIONS,
      reap: (session, reason) => void this.reap(session, reason),
    });
  }

  /** A new session for an initialize request; registered once the transport assigns its id. */
  async open(
    scope: SessionScope,
    clientCapabilities: JsonObject,
    transport: TransportFactory,
    toolsMode?: ToolsMode,
  ): Promise<Session> {
    const session = new Session({
      scope,
      context: this.context,
      clientCapabilities,
      transport,
      ...(toolsMode === undefined ? {} : { toolsMode }),
      onInitialized: (s) => {
        this.sessions.set(s.id, s);
        this.reaper.track(s);
      },
      onClosed: (s) => {
        this.sessions.delete(s.id);
        this.starting.delete(s);
        this.reaper.untrack(s);
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
    this.stateless.capabilitiesChanged(server);
  }

  serversChanged(): void {
    for (const session of this.sessions.values()) session.capabilitiesChanged();
    this.stateless.capabilitiesChanged();
  }

  /** A server was redefined, disabled or removed: no session may keep its old connection. */
  async serverRedefined(server: string): Promise<void> {
    await Promise.all([
      ...[...this.sessions.values()].map((s) => s.serverChanged(server)),
      this.stateless.serverRedefined(server),
    ]);
    await this.context.tasks?.serverChanged(server);
    this.context.instructions?.forget(server);
  }

  async closeAll(): Promise<void> {
    this.reaper.stop();
    const all = [...this.sessions.values(), ...this.starting];
    this.sessions.clear();
    this.starting.clear();
    await Promise.allSettled([...all.map((session) => session.close()), this.stateless.closeAll()]);
    await this.context.tasks?.closeAll();
  }

  private async reap(session: Session, reason: ReapReason): Promise<void> {
    if (this.sessions.get(session.id) === session) this.sessions.delete(session.id);
    this.context.logger.info({ session_id: session.id, reason }, REAP_WORDS[reason]);
    await session
      .close()
      .catch((error: unknown) =>
        this.context.logger.warn(
          { err: error, session_id: session.id },
          'could not close a session',
        ),
      );
  }
}
