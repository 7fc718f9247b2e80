/**
 * The timeout of one upstream request: an idle limit that each progress notification
 * resets (a long tool that reports progress is alive), and an overall cap.
 */
export class RequestDeadline {
  readonly controller = new AbortController();
  private idleTimer: NodeJS.Timeout | undefined;
  private readonly capTimer: NodeJS.Timeout | undefined;

  constructor(
    private readonly idleMs: number,
    capMs: number | undefined,
    private readonly onExpire: (reason: 'idle' | 'cap') => void,
  ) {
    this.arm();
    if (capMs !== undefined) {
      this.capTimer = setTimeout(() => this.expire('cap'), capMs);
      this.capTimer.unref();
    }
  }

  /** Progress arrived: the request is alive. */
  touch(): void {
    if (!this.controller.signal.aborted) this.arm();
  }

  clear(): void {
    if (this.idleTimer !== undefined) clearTimeout(this.idleTimer);
    if (this.capTimer !== undefined) clearTimeout(this.capTimer);
  }

  private arm(): void {
    if (this.idleTimer !== undefined) clearTimeout(this.idleTimer);
    this.idleTimer = setTimeout(() => this.expire('idle'), this.idleMs);
    this.idleTimer.unref();
  }

  private expire(reason: 'idle' | 'cap'): void {
    this.clear();
    this.onExpire(reason);
  }
}
