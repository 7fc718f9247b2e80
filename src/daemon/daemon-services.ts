import type { IncomingMessage, ServerResponse } from 'node:http';
import type { CofferPaths } from '../config/home.js';
import type { DaemonSettings } from '../config/settings.js';
import type { LineSocket } from '../gateway/socket-connection.js';
import type { Logger } from '../observability/logger.js';

/**
 * What the daemon's HTTP surface serves, built by the composition root
 * (src/daemon/services.ts) once the port and token are known.
 */
export interface DaemonServices {
  /**
   * Serves an MCP Streamable HTTP request (`/mcp`: server undefined, aggregated;
   * `/servers/<name>/mcp`: that server alone). Reads the body itself. Called only after
   * the access guard passed.
   */
  handleMcp(req: IncomingMessage, res: ServerResponse, server: string | undefined): Promise<void>;
  /**
   * One connection of the shim's socket channel (src/config/socket-path.ts): the hello,
   * then one MCP session. Absent: the daemon listens on no socket.
   */
  readonly handleSocket?: (socket: LineSocket) => void;
  /** The REST API: receives every `/api/v1/*` request (full URL) the daemon does not answer itself. */
  api: { fetch(request: Request): Response | Promise<Response> };
  /** GET /oauth/callback: the browser back from an OAuth sign-in (no token; `state` checked). */
  handleOAuthCallback?(req: IncomingMessage, res: ServerResponse): void;
  /** Merged into GET /api/v1/status (e.g. `{ servers: [...] }`). */
  status(): Record<string, unknown>;
  /** Closes sessions and upstreams; bounded by the daemon's shutdown timeout. */
  close(): Promise<void>;
}

export interface DaemonServicesContext {
  readonly paths: CofferPaths;
  readonly logger: Logger;
  readonly port: number;
  readonly token: string;
  /** When this daemon started (daemon.json's started_at). */
  readonly startedAt: Date;
  /** Read once from the environment by runDaemon. */
  readonly settings: DaemonSettings;
}

export type CreateServices = (context: DaemonServicesContext) => Promise<DaemonServices>;
