import { randomBytes } from 'node:crypto';
import type { Clock } from '../domain/ports.js';
import { pageSize, type ResultPage } from './result-pages.js';

export interface KeptResultsOptions {
  readonly clock: Clock;
  /** How long a result stays readable after it was cut. */
  readonly ttlMs: number;
  /** Results kept at once; the oldest goes first. */
  readonly maxResults?: number;
  /** Characters kept at once; the oldest go first (the newest result is always kept). */
  readonly maxChars?: number;
  /** Ids are random (128 bits): a session cannot read another's results by guessing. */
  readonly newId?: () => string;
}

interface Entry {
  readonly pages: readonly ResultPage[];
  readonly chars: number;
  readonly expiresAt: number;
}

const DEFAULT_MAX_RESULTS = 20;
const DEFAULT_MAX_CHARS = 16 * 1024 * 1024;

/**
 * The oversized results one session has cut, kept so its client can read them in pages.
 * Bounded by age, count and size; expired entries are dropped on every use (no timers),
 * and everything goes with the session.
 */
export class KeptResults {
  private readonly entries = new Map<string, Entry>();
  private readonly maxResults: number;
  private readonly maxChars: number;
  private readonly newId: () => string;
  private chars = 0;

  constructor(private readonly options: KeptResultsOptions) {
    this.maxResults = options.maxResults ?? DEFAULT_MAX_RESULTS;
    this.maxChars = options.maxChars ?? DEFAULT_MAX_CHARS;
    this.newId = options.newId ?? (() => randomBytes(16).toString('base64url'));
  }

  /** Keeps `pages` and returns the id they are read back by. */
  keep(pages: readonly ResultPage[]): string {
    this.dropExpired();
    const id = this.newId();
    const chars = pages.reduce((sum, page) => sum + pageSize(page), 0);
    this.entries.set(id, { pages, chars, expiresAt: this.now() + this.options.ttlMs });
    this.chars += chars;
    // Maps iterate in insertion order: the first key is the oldest result.
    for (const oldest of this.entries.keys()) {
      if (oldest === id || (this.entries.size <= this.maxResults && this.chars <= this.maxChars))
        break;
      this.drop(oldest);
    }
    return id;
  }

  /** The pages kept under `id`, or undefined when unknown, expired or evicted. */
  pages(id: string): readonly ResultPage[] | undefined {
    this.dropExpired();
    return this.entries.get(id)?.pages;
  }

  get size(): number {
    return this.entries.size;
  }

  private dropExpired(): void {
    const now = this.now();
    for (const [id, entry] of this.entries) if (entry.expiresAt <= now) this.drop(id);
  }

  private drop(id: string): void {
    const entry = this.entries.get(id);
    if (entry === undefined) return;
    this.chars -= entry.chars;
    this.entries.delete(id);
  }

  private now(): number {
    return this.options.clock.now().getTime();
  }
}
