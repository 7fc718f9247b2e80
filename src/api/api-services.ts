import type {
  ActivityRepository,
  ActivitySink,
  AgentSetup,
  CapabilityCatalog,
  ContextBudgetReader,
  Clock,
  DaemonEvents,
  DoctorSource,
  OAuthSignIn,
  PreferenceRepository,
  SecretStore,
  ServerRepository,
  SessionNotifier,
  ToolRunner,
  ToolPinRepository,
  ToolPolicyRepository,
  ToolSearch,
} from '../domain/ports.js';
import type { Logger } from '../observability/logger.js';

/**
 * What the REST API needs, as domain ports only: the daemon (composition root) wires
 * the store, the gateway's catalog and notifier in; the API never sees SQL or sessions.
 */
export interface ApiServices {
  readonly servers: ServerRepository;
  readonly preferences: PreferenceRepository;
  readonly catalog: CapabilityCatalog;
  readonly notifier: SessionNotifier;
  readonly clock: Clock;
  /** Where the causes of INTERNAL errors go; silent when absent (tests). */
  readonly logger?: Logger;
  /** Read side of the activity log (GET /activity); the route answers 404 when absent. */
  readonly activity?: ActivityRepository;
  /** Where admin actions are recorded; not recorded when absent (tests of other routes). */
  readonly audit?: ActivitySink;
  /** The keychain (or its fallback); the /secrets routes answer 404 when absent. */
  readonly secrets?: SecretStore;
  /** Ranks enabled tools (GET /tools/search); the route answers 404 when absent. */
  readonly toolSearch?: ToolSearch;
  /** Where changes are announced (GET /events streams them); nothing is announced when absent. */
  readonly events?: DaemonEvents;
  /** OAuth sign-in of remote servers (/servers/:name/login); the routes answer 404 when absent. */
  readonly oauth?: OAuthSignIn;
  /** The daemon's health report (GET /doctor); the route answers 404 when absent. */
  readonly doctor?: DoctorSource;
  /** Calls a tool as an agent would (POST /servers/:name/call); 404 when absent. */
  readonly tools?: ToolRunner;
  /** What tools/list costs (GET /context-budget); 404 when absent. */
  readonly budget?: ContextBudgetReader;
  /** Agent config files (/agents); the routes answer 404 when absent. */
  readonly agents?: AgentSetup;
  /** Approval policies (/servers/:name/policies); the routes answer 404 when absent. */
  readonly policies?: ToolPolicyRepository;
  /** Tool pins (/servers/:name/reviews); the routes answer 404 when absent. */
  readonly pins?: ToolPinRepository;
  /** The port the daemon listens on: an agent entry for it is Coffer itself (imports skip it). */
  readonly ownPort?: number;
}
