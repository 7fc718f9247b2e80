import type { Logger } from '../observability/logger.js';
import type { TraceContext } from '../observability/trace-context.js';
import type {
  ActivitySink,
  Clock,
  JsonObject,
  Schedule,
  PreferenceRepository,
  ToolPolicyRepository,
  UpstreamConnector,
} from '../domain/ports.js';
import type { ToolsMode } from '../domain/tools-mode.js';
import type { ServerRecord } from '../domain/server-definition.js';
import type { ResultLimit } from './oversized-results.js';
import type { ProcessSlots } from './process-slots.js';
import type { SecretGuard } from './secret-guard.js';
import type { ServerInstructions } from './server-instructions.js';
import type { ServerStates } from './server-states.js';
import type { TaskRegistry } from './task-registry.js';
import type { ToolPins } from './tool-pins.js';

/** What every session of the gateway shares: ports, settings and the daemon's view of health. */
export interface GatewayContext {
  readonly serverInfo: { name: string; version: string };
  readonly connector: UpstreamConnector;
  readonly preferences: PreferenceRepository;
  /** Approval policies (issue 20); absent: no tool is asked for or denied. */
  readonly policies?: ToolPolicyRepository;
  /** The pin check of tool lists (issue 20); absent: no tool is pinned nor held back. */
  readonly pins?: ToolPins;
  /** The secret guard of params and results (issue 20.3); absent: nothing is scanned. */
  readonly secretGuard?: SecretGuard;
  readonly activity: ActivitySink;
  readonly states: ServerStates;
  readonly clock: Clock;
  /** Runs work later (a task's short wait for its outcome); absent: Node's timers. */
  readonly schedule?: Schedule;
  readonly logger: Logger;
  /** How long a list stays cached in a session (ADR-004: 60 s). */
  readonly listTtlMs: number;
  /** How long one upstream may take to list before it is left out. */
  readonly listTimeoutMs: number;
  /** The tool list of aggregated sessions that do not choose one (`COFFER_TOOLS_MODE`). */
  readonly toolsMode?: ToolsMode;
  /** Enabled servers, all or the one named. */
  readonly enabledServers: (only?: string) => Promise<readonly ServerRecord[]>;
  /** Whether a registered server is switched off (a call to it says so); absent: unknown. */
  readonly isDisabled?: (server: string) => Promise<boolean>;
  readonly upstreamLog: (server: string, params: JsonObject | undefined) => void;
  readonly logFailure: (method: string, error: unknown, trace?: TraceContext) => void;
  /** The per-server limit on live upstream processes, shared with the admin catalog. */
  readonly processSlots?: ProcessSlots;
  /** A session with no request for this long is closed with its upstreams (30 min). */
  readonly sessionIdleMs?: number;
  /** A session whose GET stream dropped, and nothing else came, is closed after this. */
  readonly sessionGraceMs?: number;
  /** Sessions kept at most; one more closes the one quiet longest (session-reaper.ts). */
  readonly maxSessions?: number;
  /** Tool results over this budget are cut and kept to read in pages; absent: never cut. */
  readonly resultLimit?: ResultLimit;
  /** What servers said about their use, for the aggregated endpoint; absent: nothing kept. */
  readonly instructions?: ServerInstructions;
  /** The daemon's tasks, shared by its sessions (the Gateway makes one when absent). */
  readonly tasks?: TaskRegistry;
  /**
   * A session stored a policy (an approval's "always allow"): every other session drops
   * the policies it read, as after a change through the API, and the UI is told.
   */
  readonly policyChanged?: (server: string) => void;
}
