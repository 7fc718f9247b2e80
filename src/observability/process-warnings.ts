import type { Logger } from './logger.js';

/** What of a process this needs: its warnings, and a way to stop Node printing them. */
export interface WarningSource {
  on(event: 'warning', listener: (warning: Error) => void): unknown;
  removeAllListeners(event: 'warning'): unknown;
}

/** Kinds of warning counted apart; any more share one count (a bound on memory). */
const MAX_KINDS = 100;
const OTHER = 'other warnings';

/**
 * Node's process warnings, in the daemon's own log instead of on stderr. A spawned
 * daemon's stderr is logs/daemon-stdio.log, trimmed only when the next daemon is spawned
 * (src/discovery/daemon-stdio-log.ts), and a warning repeated on every call
 * (MaxListenersExceededWarning was, behind remote upstreams) would grow it without end.
 * Each kind of warning (its name and its text with the numbers taken out) is logged the
 * first time, then again each time its count doubles, with the count: a million repeats
 * make twenty lines.
 */
export class ProcessWarnings {
  private readonly counts = new Map<string, number>();

  constructor(private readonly logger: Logger) {}

  /** Takes `source`'s warnings over from Node's own printer. */
  attach(source: WarningSource): void {
    source.removeAllListeners('warning');
    source.on('warning', (warning) => this.record(warning));
  }

  record(warning: Error): void {
    const count = this.count(`${warning.name}: ${warning.message.replace(/\d+/g, 'N')}`);
    // 1, 2, 4, 8, …: powers of two only.
    if ((count & (count - 1)) !== 0) return;
    const code = (warning as { code?: unknown }).code;
    const fields = {
      warning: { name: warning.name, ...(typeof code === 'string' ? { code } : {}), count },
      // Where it came from, once: the later lines would only repeat it.
      ...(count === 1 && warning.stack !== undefined ? { stack: warning.stack } : {}),
    };
    this.logger.warn(fields, `process warning: ${warning.message}`);
  }

  private count(kind: string): number {
    const key = this.counts.has(kind) || this.counts.size < MAX_KINDS ? kind : OTHER;
    const count = (this.counts.get(key) ?? 0) + 1;
    this.counts.set(key, count);
    return count;
  }
}
