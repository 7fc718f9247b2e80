import type { JsonObject } from '../domain/ports.js';
import type { RequestId } from './router/method-table.js';

const SEVERITY = [
  'debug',
  'info',
  'notice',
  'warning',
  'error',
  'critical',
  'alert',
  'emergency',
] as const;

export type LoggingLevel = (typeof SEVERITY)[number];

/** A message at `level` passes a threshold of `threshold` (a level MCP does not define passes). */
export function passesLevel(level: unknown, threshold: LoggingLevel): boolean {
  if (!isLoggingLevel(level)) return true;
  return SEVERITY.indexOf(level) >= SEVERITY.indexOf(threshold);
}

/** Where relayed log messages go: the session's notifier. */
export type LogSink = (params: JsonObject, relatedRequestId: RequestId | undefined) => void;

/**
 * Upstream log messages (`notifications/message`). Always written to the upstream's log
 * file; relayed to the client on the single-server endpoint, which mirrors one upstream
 * as if the client were talking to it directly. The aggregated endpoint keeps them out
 * of the client's way (many upstreams, one client: the research notes' rule) until the
 * client asks for them with `logging/setLevel`, as a 2026-07-28 request asks for its own
 * (request-logs.ts). Coffer answers `logging/setLevel` itself and filters by the level
 * the client chose. A 2025-11-25 session's only.
 */
export class LogRelay {
  readonly levels: readonly string[] = SEVERITY;
  private level: LoggingLevel = 'debug';
  /** The client set a level: it wants the lines at or above it, on any endpoint. */
  private asked = false;

  constructor(
    private readonly sink: LogSink,
    private readonly relay: boolean,
  ) {}

  /** Returns false for a level MCP does not define. */
  setLevel(level: unknown): boolean {
    if (!isLoggingLevel(level)) return false;
    this.level = level;
    this.asked = true;
    return true;
  }

  forward(params: JsonObject | undefined, relatedRequestId: RequestId | undefined): void {
    if (!(this.relay || this.asked) || !passesLevel(params?.['level'], this.level)) return;
    this.sink(params ?? {}, relatedRequestId);
  }
}

export function isLoggingLevel(value: unknown): value is LoggingLevel {
  return SEVERITY.includes(value as LoggingLevel);
}
