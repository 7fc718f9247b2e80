import type { ClientRequest, IncomingMessage } from 'node:http';
import { contentType, type HttpOutcome } from './daemon-http.js';
import type { ShimLog } from './shim-log.js';

/**
 * The session's GET stream: where the daemon sends what no request caused (list_changed,
 * resources/updated). Re-opened a few times if it drops while the session lives; given
 * up when the daemon says the session is gone or nobody listens any more. The shim
 * then heals on the client's next message, never by itself: a live shim must not
 * respawn a daemon the user just stopped.
 */

export interface GetStreamOptions {
  open(track: (request: ClientRequest) => void): Promise<HttpOutcome>;
  /** Relays the stream's messages; resolves when it closes. */
  consume(response: IncomingMessage): Promise<void>;
  readonly log: ShimLog;
}

const RETRY_DELAYS_MS = [250, 1_000, 4_000];
/** A stream that stayed up this long was healthy: its end starts the retry count afresh. */
const HEALTHY_MS = 10_000;
/** The daemon does not (405), no longer (404, 401) or already (409) serves this stream. */
const FINAL_STATUSES = new Set([401, 404, 405, 409]);

export class GetStream {
  private request: ClientRequest | undefined;
  private running = false;
  private closed = false;
  private wake: (() => void) | undefined;

  constructor(private readonly options: GetStreamOptions) {}

  open(): void {
    if (this.running || this.closed) return;
    this.running = true;
    void this.run().finally(() => {
      this.running = false;
    });
  }

  close(): void {
    this.closed = true;
    this.request?.destroy();
    this.wake?.();
  }

  private async run(): Promise<void> {
    let failures = 0;
    while (!this.closed) {
      const result = await this.attempt();
      if (result === 'final' || this.closed) return;
      failures = result === 'healthy' ? 1 : failures + 1;
      const delay = RETRY_DELAYS_MS[failures - 1];
      if (delay === undefined) {
        this.options.log.info('GET stream given up; the next message re-checks the session');
        return;
      }
      await this.pause(delay);
    }
  }

  /** One open-and-read; tells whether to stop or how the stream went. */
  private async attempt(): Promise<'final' | 'healthy' | 'failed'> {
    const outcome = await this.options.open((request) => {
      this.request = request;
    });
    const { log } = this.options;
    if (outcome.kind === 'unreachable') {
      log.info('GET stream: daemon unreachable', { err: outcome.error });
      return 'final';
    }
    if (outcome.kind === 'failed') {
      log.info('GET stream failed', { err: outcome.error });
      return 'failed';
    }
    const { response } = outcome;
    const status = response.statusCode ?? 0;
    if (status !== 200 || contentType(response) !== 'text/event-stream') {
      response.resume();
      log.info('GET stream refused', { status });
      return FINAL_STATUSES.has(status) ? 'final' : 'failed';
    }
    const opened = Date.now();
    await this.options.consume(response);
    if (!this.closed) log.info('GET stream ended', { after_ms: Date.now() - opened });
    return Date.now() - opened >= HEALTHY_MS ? 'healthy' : 'failed';
  }

  private pause(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const timer = setTimeout(resolve, ms);
      this.wake = () => {
        clearTimeout(timer);
        resolve();
      };
    });
  }
}
