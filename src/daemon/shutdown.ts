import type { Server } from 'node:http';
import type { Logger } from '../observability/logger.js';

export const DEFAULT_SHUTDOWN_TIMEOUT_MS = 5_000;

/** Resolves 'timeout' when `promise` does not settle within `ms`; rejections propagate. */
export async function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T | 'timeout'> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<'timeout'>((resolve) => {
    timer = setTimeout(() => resolve('timeout'), ms);
    timer.unref();
  });
  try {
    return await Promise.race([promise, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

export interface ShutdownPlan {
  readonly server: Server;
  readonly logger: Logger;
  /** services.close(), given at most `timeoutMs`. */
  closeServices(): Promise<void>;
  /** Removes daemon.json (only if it is still ours). */
  removeDaemonFile(): void;
  readonly timeoutMs: number;
}

/**
 * The shutdown order: stop accepting connections, close the services (bounded), drop
 * the remaining connections, remove daemon.json. Idempotent: every caller gets the
 * same promise.
 */
export function createShutdown(plan: ShutdownPlan): (reason: string) => Promise<void> {
  let running: Promise<void> | undefined;
  const run = async (reason: string): Promise<void> => {
    const { server, logger } = plan;
    logger.info({ reason }, 'daemon shutting down');
    const closed = new Promise<void>((resolve) => server.close(() => resolve()));
    server.closeIdleConnections();
    try {
      const outcome = await withTimeout(plan.closeServices(), plan.timeoutMs);
      if (outcome === 'timeout') {
        logger.warn({ timeoutMs: plan.timeoutMs }, 'services did not close in time');
      }
    } catch (error) {
      logger.error({ err: error }, 'closing services failed');
    }
    server.closeAllConnections();
    await withTimeout(closed, 1_000);
    try {
      plan.removeDaemonFile();
    } catch (error) {
      logger.error({ err: error }, 'removing daemon.json failed');
    }
    logger.info('daemon stopped');
  };
  return (reason) => {
    running ??= run(reason);
    return running;
  };
}
