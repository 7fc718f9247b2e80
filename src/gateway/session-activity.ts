/** Why the reaper closes a session. */
export type ReapReason = 'vanished' | 'idle' | 'crowded';

export interface ReapLimits {
  /** No request for this long: the session is idle. */
  readonly idleMs: number;
  /** The GET stream dropped and nothing else came for this long: the client vanished. */
  readonly graceMs: number;
}

/** The part of an HTTP response the tracker needs (node's ServerResponse fits). */
export interface TrackedResponse {
  readonly statusCode: number;
  once(event: 'close', listener: () => void): unknown;
}

/**
 * What a session's client has done lately, for the session reaper. A client that holds
 * the GET stream (the shim does, src/shim/get-stream.ts) and loses it, then sends
 * nothing, has vanished: a SIGKILLed shim looks exactly like that. A request in flight
 * (a long tool call) always keeps its session.
 */
export class SessionActivity {
  private requests = 0;
  private streams = 0;
  private lastSeen: number;
  /** The client's GET stream ended and the client has not been heard of since. */
  private streamLost = false;

  constructor(private readonly now: () => number) {
    this.lastSeen = now();
  }

  /** Follows one HTTP exchange of the session until its response closes. */
  track(method: string | undefined, response: TrackedResponse): void {
    if (method === 'GET') {
      const ended = this.streamOpened();
      // A GET refused (405, 409, …) never was a stream: its end says nothing of the client.
      response.once('close', () => ended(response.statusCode === 200));
    } else {
      response.once('close', this.requestStarted());
    }
  }

  /** A POST or DELETE arrived; the result marks its response ended. */
  requestStarted(): () => void {
    this.requests += 1;
    this.seen();
    this.streamLost = false;
    return once(() => {
      this.requests -= 1;
      this.seen();
    });
  }

  /** A GET arrived; the result marks it ended, saying whether it had become a stream. */
  streamOpened(): (wasStream: boolean) => void {
    this.streams += 1;
    this.seen();
    this.streamLost = false;
    let ended = false;
    return (wasStream) => {
      if (ended) return;
      ended = true;
      this.streams -= 1;
      this.seen();
      if (wasStream && this.streams === 0) this.streamLost = true;
    };
  }

  /** How long its client has been quiet; undefined while a request is in flight. */
  quietMs(): number | undefined {
    return this.requests > 0 ? undefined : this.now() - this.lastSeen;
  }

  /** Why the session should be closed now, or undefined while it should live. */
  verdict(limits: ReapLimits): ReapReason | undefined {
    if (this.requests > 0) return undefined;
    const quiet = this.now() - this.lastSeen;
    if (this.streamLost && this.streams === 0 && quiet >= limits.graceMs) return 'vanished';
    if (quiet >= limits.idleMs) return 'idle';
    return undefined;
  }

  private seen(): void {
    this.lastSeen = this.now();
  }
}

function once(action: () => void): () => void {
  let done = false;
  return () => {
    if (done) return;
    done = true;
    action();
  };
}
