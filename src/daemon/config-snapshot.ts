import { basename } from 'node:path';
import { writePrivateFile } from '../config/private-files.js';
import { systemSchedule, type DaemonEvent, type Schedule } from '../domain/ports.js';
import type { Logger } from '../observability/logger.js';

/** A snapshot file the daemon could not write lately, and why. */
export interface SnapshotFailure {
  readonly file: string;
  readonly why: string;
}

export interface ConfigSnapshotOptions {
  /** `<home>/config-snapshot.json` (or `tool-pins-snapshot.json`, kept the same way). */
  readonly path: string;
  /**
   * What the file holds now: what `coffer config export` would print
   * (domain/config-store.ts), or every tool pin (pin-snapshot.ts).
   */
  readonly read: () => Promise<unknown>;
  readonly logger?: Logger;
  /** How long after a change the file is written, so a burst of switches is one write. */
  readonly delayMs?: number;
  readonly schedule?: Schedule;
  readonly write?: (path: string, text: string) => void;
}

/**
 * Keeps `config-snapshot.json` what `coffer config export` would print: the servers, their
 * switches and policies, secrets by name only. It is what the daemon restores from when it
 * finds its database damaged at start (store-recovery.ts, docs/RECOVERY.md), so a damaged
 * file costs the activity log, not the user's set-up. Written at start and after each
 * change of the configuration, only when its text differs. A second one keeps the tool
 * pins in `tool-pins-snapshot.json` the same way (pin-snapshot.ts).
 */
export class ConfigSnapshot {
  private written: string | undefined;
  private failure: string | undefined;
  private cancel: (() => void) | undefined;
  private writing: Promise<void> = Promise.resolve();

  constructor(private readonly options: ConfigSnapshotOptions) {}

  /** Whether an event may have changed what the snapshot holds. */
  static follows(event: DaemonEvent): boolean {
    if (event.type === 'server.state') return false;
    // Admin actions include policies and reviews, which have no event of their own.
    if (event.type === 'activity.recorded') return event.entry.capability_type === 'admin';
    return true;
  }

  /** Which file failed and why (an error code, `EACCES`), until a write succeeds. */
  lastFailure(): SnapshotFailure | undefined {
    return this.failure === undefined
      ? undefined
      : { file: basename(this.options.path), why: this.failure };
  }

  /** A change was made: write within `delayMs`, once for the whole burst. */
  changed(): void {
    if (this.cancel !== undefined) return;
    this.cancel = (this.options.schedule ?? systemSchedule)(() => {
      this.cancel = undefined;
      void this.flush();
    }, this.options.delayMs ?? 250);
  }

  /** Writes now (after any write under way); never throws: a failed write is logged. */
  flush(): Promise<void> {
    this.cancel?.();
    this.cancel = undefined;
    this.writing = this.writing.then(() => this.writeOnce());
    return this.writing;
  }

  private async writeOnce(): Promise<void> {
    try {
      const text = `${JSON.stringify(await this.options.read(), null, 2)}\n`;
      if (text === this.written) return;
      (this.options.write ?? writePrivateFile)(this.options.path, text);
      this.written = text;
      this.failure = undefined;
    } catch (error) {
      // What is on disk is unknown now: the next write goes out whatever its text.
      this.written = undefined;
      const code = (error as { code?: unknown } | undefined)?.code;
      this.failure = typeof code === 'string' ? code : 'the configuration could not be read';
      // The daemon serves on: the snapshot is a safety net, and the next change tries again.
      this.options.logger?.warn({ err: error, path: this.options.path }, 'config snapshot failed');
    }
  }
}
