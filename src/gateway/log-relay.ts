import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { SetLevelRequestSchema, type LoggingLevel } from '@modelcontextprotocol/sdk/types.js';
import type { JsonObject } from '../domain/ports.js';

const SEVERITY: readonly LoggingLevel[] = [
  'debug',
  'info',
  'notice',
  'warning',
  'error',
  'critical',
  'alert',
  'emergency',
];

/**
 * Upstream log messages (`notifications/message`). Always written to the upstream's log
 * file; relayed to the client only on the single-server endpoint, which mirrors one
 * upstream as if the client were talking to it directly. The aggregated endpoint keeps
 * them out of the client's way (many upstreams, one client): the research notes' rule.
 * Coffer answers `logging/setLevel` itself and filters by the level the client chose.
 */
export class LogRelay {
  private level: LoggingLevel = 'debug';

  constructor(
    private readonly downstream: Server,
    private readonly relay: boolean,
  ) {
    downstream.setRequestHandler(SetLevelRequestSchema, (request) => {
      this.level = request.params.level;
      return {};
    });
  }

  forward(params: JsonObject | undefined, relatedRequestId: string | number | undefined): void {
    if (!this.relay || !this.passes(params?.['level'])) return;
    void this.downstream
      .notification(
        { method: 'notifications/message', params: params ?? {} },
        relatedRequestId === undefined ? {} : { relatedRequestId },
      )
      .catch(() => undefined);
  }

  private passes(level: unknown): boolean {
    const at = SEVERITY.indexOf(level as LoggingLevel);
    return at < 0 || at >= SEVERITY.indexOf(this.level);
  }
}
