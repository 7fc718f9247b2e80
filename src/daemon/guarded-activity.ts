import type { ActivityEntry, ActivitySink } from '../domain/ports.js';
import type { Logger } from '../observability/logger.js';
import type { SecretGuard, TextRedaction } from '../gateway/secret-guard.js';

/**
 * Stands for a client's words when the stored secrets could not be read (a locked
 * keychain): Coffer cannot tell whether they hold one, so it writes none of them down.
 */
export const UNCHECKED_TEXT = '[unchecked: secrets unreadable]';

export interface GuardedActivityOptions {
  readonly sink: ActivitySink;
  readonly guard: Pick<SecretGuard, 'textRedaction' | 'readyTextRedaction'>;
  readonly logger: Logger;
}

/**
 * The activity sink in front of the log, the database and live UIs, with the stored
 * secrets taken out of what a client chose: the name it called (an agent that calls a tool
 * named like the user's token, or a prompt that makes it), the server it named, its
 * clientInfo. A result's secrets are the secret guard's; these strings never pass it.
 * An entry is passed on at once when the guard's matcher is built (every call but the
 * first after a change); else it waits for it, and entries after it wait their turn, so
 * the order is kept.
 */
export class GuardedActivity implements ActivitySink {
  private waiting = 0;
  private chain: Promise<void> = Promise.resolve();

  constructor(private readonly options: GuardedActivityOptions) {}

  record(entry: ActivityEntry): void {
    const ready = this.waiting === 0 ? this.options.guard.readyTextRedaction() : undefined;
    if (ready !== undefined) {
      this.options.sink.record(redactEntry(entry, ready));
      return;
    }
    this.waiting++;
    this.chain = this.chain
      .then(() => this.redaction())
      .then((redaction) => this.options.sink.record(redactEntry(entry, redaction)))
      .catch(() => undefined)
      .finally(() => this.waiting--);
  }

  /** Resolves once every entry recorded so far has been passed on. */
  settled(): Promise<void> {
    return this.chain;
  }

  private async redaction(): Promise<TextRedaction> {
    try {
      return await this.options.guard.textRedaction();
    } catch (error) {
      this.options.logger.warn({ err: error }, 'activity: the stored secrets could not be read');
      return () => UNCHECKED_TEXT;
    }
  }
}

/** The entry with the strings a client (or an API caller) chose redacted. */
export function redactEntry(entry: ActivityEntry, redaction: TextRedaction): ActivityEntry {
  const text = (value: string | null) => (value === null ? null : redaction(value));
  return {
    ...entry,
    client_name: text(entry.client_name),
    client_version: text(entry.client_version),
    server: text(entry.server),
    capability_key: text(entry.capability_key),
  };
}
