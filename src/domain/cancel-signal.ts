/**
 * A request's cancellation as the relay passes it along: from the client's
 * notifications/cancelled (or the session's end), through the handler and the upstream
 * relay, to the upstream connection that forwards the cancel.
 *
 * Why not AbortSignal: every relayed request gets one, and on Node 20 an AbortController
 * plus an addEventListener / removeEventListener per request cost the daemon 6–14 % of its
 * CPU per relayed call (docs/PERFORMANCE.md, "Cancellation without AbortController"). This
 * is the part of AbortSignal the relay uses, and nothing else. It behaves like
 * AbortSignal where they overlap: a listener added after the abort never runs (check
 * `aborted` first), and each listener runs once.
 */
export interface CancelSignal {
  readonly aborted: boolean;
  /** What `abort` was given (the client's reason, or an error); undefined before. */
  readonly reason: unknown;
  /** Runs `listener` once when aborted; the function returned removes it. */
  onAbort(listener: (reason: unknown) => void): () => void;
}

/** The side that aborts: one per request, owned by whoever may cancel it. */
export class Cancellation implements CancelSignal {
  private isAborted = false;
  private abortReason: unknown = undefined;
  // Most requests get one listener at most (the upstream connection's): the array is made
  // when the first one comes.
  private listeners: ((reason: unknown) => void)[] | undefined;

  get aborted(): boolean {
    return this.isAborted;
  }

  get reason(): unknown {
    return this.abortReason;
  }

  onAbort(listener: (reason: unknown) => void): () => void {
    if (this.isAborted) return ignore;
    (this.listeners ??= []).push(listener);
    return () => {
      const index = this.listeners?.indexOf(listener) ?? -1;
      if (index >= 0) this.listeners?.splice(index, 1);
    };
  }

  /** Without a reason, the reason is an AbortError, as AbortController gives. */
  abort(reason?: unknown): void {
    if (this.isAborted) return;
    this.isAborted = true;
    this.abortReason = reason ?? new DOMException('This operation was aborted', 'AbortError');
    // Taken one at a time from the live list: a listener removed by another one that
    // ran first does not run, as with AbortSignal.
    const listeners = this.listeners ?? [];
    for (let next = listeners.shift(); next !== undefined; next = listeners.shift())
      next(this.abortReason);
    this.listeners = undefined;
  }
}

/** A cancellation that never comes (a request nobody can cancel). */
export const NEVER_CANCELLED: CancelSignal = {
  aborted: false,
  reason: undefined,
  onAbort: () => ignore,
};

function ignore(): void {}
