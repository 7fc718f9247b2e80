import type { Logger } from '../observability/logger.js';
import { ProcessWarnings } from '../observability/process-warnings.js';

export interface OwnProcessHooks {
  /** Stops the daemon gracefully, giving the reason for the log. */
  readonly stop: (reason: string) => Promise<void>;
  /** Called before `stop` when an exception escaped: the process is to exit 1, not 0. */
  readonly crashed: () => void;
}

/**
 * What only the `coffer daemon` process does, never a daemon run inside a test: stop on
 * SIGTERM, SIGINT and SIGHUP (a foreground daemon whose terminal closed), log Node's
 * warnings, and shut down cleanly, exit code 1, on an uncaught exception.
 */
export function watchOwnProcess(logger: Logger, hooks: OwnProcessHooks): void {
  const onSignal = (signal: NodeJS.Signals): void => {
    logger.info({ signal }, 'signal received');
    void hooks.stop(signal);
  };
  for (const signal of ['SIGTERM', 'SIGINT', 'SIGHUP'] as const) process.on(signal, onSignal);
  new ProcessWarnings(logger).attach(process);
  process.on('uncaughtException', (error) => {
    logger.fatal({ err: error }, 'uncaught exception: shutting down');
    process.stderr.write(`coffer: daemon crashed: ${error.stack ?? error.message}\n`);
    hooks.crashed();
    void hooks.stop('uncaught exception');
  });
  process.on('unhandledRejection', (reason) => {
    logger.error({ err: reason }, 'unhandled promise rejection');
  });
}
