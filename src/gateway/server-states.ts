import type { CapabilityType } from '../domain/capability.js';
import type { CapabilityCounts, Clock, ServerStatus } from '../domain/ports.js';
import type { CofferError } from '../domain/errors.js';

interface Entry {
  lastError: ServerStatus['last_error'];
  counts: CapabilityCounts | null;
  live: number;
  failedSinceSuccess: boolean;
  /** Its OAuth tokens are missing or were refused: only a sign-in helps. */
  needsSignIn: boolean;
  /** When its connections ended on their own, most recent last (within CRASH_WINDOW_MS). */
  crashes: number[];
  /**
   * A connection opened since the last crash. Every session's connection ends when one
   * server goes down: the ones after the first are that same crash, not more of them.
   */
  connectedSinceCrash: boolean;
  /** Connects in progress (one per pool that is starting it): 'starting' while any is. */
  starting: Set<Promise<unknown>>;
  /** When the last successful start finished and how long it took (`coffer doctor`). */
  lastStart: { at: string; ms: number } | null;
  /** The protocol revision of the last connection that opened. */
  protocolVersion: string | undefined;
  /** The moment this server last got fresh tokens (0: never). */
  signedInAt: number;
  /** The start of the latest list attempt that succeeded (0: none). */
  listedFrom: number;
}

/** Three unexpected exits within a minute is a crash loop, not bad luck. */
const CRASH_WINDOW_MS = 60_000;
const CRASH_LOOP_AT = 3;
const MAX_BACKOFF_MS = 5_000;

const countField: Partial<Record<CapabilityType, keyof CapabilityCounts>> = {
  tool: 'tools',
  prompt: 'prompts',
  resource: 'resources',
  resource_template: 'resource_templates',
};

/**
 * What the daemon knows of each server's health, from every session and admin
 * request: shown by `coffer mcp list` and the UI. In memory only: it describes this
 * daemon's run, not a fact worth persisting.
 */
export class ServerStates {
  private readonly entries = new Map<string, Entry>();
  /**
   * Orders what is heard late against what happened since: every sign-in (or refresh)
   * and every list attempt's start takes the next count. A failure may be reported after
   * it was answered: a list that was loading while the user signed in, or a list that
   * began before another one that has since succeeded (it timed out, or its connection
   * was replaced). Each AUTH_REQUIRED is stamped with the count when first seen; a list's
   * failure carries its start. One older than what answers it is old news.
   */
  private moments = 0;
  private readonly authFailures = new WeakMap<CofferError, number>();

  /** `onChange` hears of every change of a server's visible status (the UI's live updates). */
  constructor(
    private readonly clock: Clock,
    private readonly onChange?: (server: string, status: ServerStatus) => void,
  ) {}

  status(server: string): ServerStatus {
    const entry = this.entries.get(server);
    if (entry === undefined) return { state: 'idle', last_error: null, counts: null };
    const state = entry.needsSignIn
      ? 'needs-sign-in'
      : this.recentCrashes(entry) >= CRASH_LOOP_AT
        ? 'crash-loop'
        : entry.starting.size > 0
          ? 'starting'
          : entry.failedSinceSuccess
            ? 'error'
            : entry.live > 0
              ? 'running'
              : 'idle';
    const version = entry.protocolVersion;
    return {
      state,
      last_error: entry.lastError,
      counts: entry.counts,
      ...(version === undefined ? {} : { protocol_version: version }),
    };
  }

  /** A list attempt begins: its ticket orders what it reports against the other attempts. */
  listing(): number {
    this.moments += 1;
    return this.moments;
  }

  listed(server: string, type: CapabilityType, count: number, ticket = 0): void {
    const field = countField[type];
    this.counted(server, field === undefined ? {} : { [field]: count }, ticket);
  }

  /** Every list of a server at once (a connection test): one change, reported once. */
  listedAll(server: string, counts: CapabilityCounts, ticket = 0): void {
    this.counted(server, counts, ticket);
  }

  private counted(server: string, counts: Partial<CapabilityCounts>, ticket: number): void {
    const before = this.snapshot(server);
    const entry = this.entry(server);
    entry.listedFrom = Math.max(entry.listedFrom, ticket);
    entry.failedSinceSuccess = false;
    entry.needsSignIn = false;
    entry.crashes = [];
    if (Object.keys(counts).length > 0)
      // Only what was listed: a kind no list has reached yet stays unknown, not 0.
      entry.counts = { ...entry.counts, ...counts };
    this.report(server, before);
  }

  /** `ticket`: the list attempt that failed, if a list did (see `listing`). */
  failed(server: string, error: CofferError, ticket?: number): void {
    if (this.answered(server, error, ticket)) return;
    const before = this.snapshot(server);
    const entry = this.entry(server);
    entry.failedSinceSuccess = true;
    if (error.code === 'AUTH_REQUIRED' && !refusedOutsideSignIn(error)) entry.needsSignIn = true;
    entry.lastError = {
      code: error.code,
      message: error.message,
      ...(error.hint === undefined ? {} : { hint: error.hint }),
      at: this.clock.now().toISOString(),
    };
    this.report(server, before);
  }

  /** Fresh OAuth tokens were stored (a sign-in or a refresh): the server may be used again. */
  signedIn(server: string): void {
    const entry = this.entries.get(server);
    if (entry === undefined) return;
    this.moments += 1;
    entry.signedInAt = this.moments;
    if (!entry.needsSignIn) return;
    const before = this.snapshot(server);
    entry.needsSignIn = false;
    entry.failedSinceSuccess = false;
    entry.lastError = null;
    this.report(server, before);
  }

  /**
   * A connect to `server` is in progress: the server shows 'starting' until `connect`
   * settles (connected, or failed: the failure itself is reported by `failed`).
   */
  starting(server: string, connect: Promise<unknown>): void {
    const before = this.snapshot(server);
    const entry = this.entry(server);
    entry.starting.add(connect);
    this.report(server, before);
    const began = this.clock.now().getTime();
    const settled = (ok: boolean): void => {
      const current = this.entries.get(server);
      if (current === undefined || !current.starting.has(connect)) return;
      const beforeEnd = this.snapshot(server);
      current.starting.delete(connect);
      const now = this.clock.now();
      if (ok) current.lastStart = { at: now.toISOString(), ms: now.getTime() - began };
      this.report(server, beforeEnd);
    };
    connect.then(
      () => settled(true),
      () => settled(false),
    );
  }

  /** The last successful start seen by this daemon, or null. */
  lastStart(server: string): { readonly at: string; readonly ms: number } | null {
    return this.entries.get(server)?.lastStart ?? null;
  }

  connected(server: string, protocolVersion?: string): void {
    const before = this.snapshot(server);
    const entry = this.entry(server);
    entry.live += 1;
    entry.connectedSinceCrash = true;
    if (protocolVersion !== undefined) entry.protocolVersion = protocolVersion;
    entry.failedSinceSuccess = false;
    this.report(server, before);
  }

  /** `local`: a process of Coffer's ended; otherwise a remote server dropped the connection. */
  disconnected(server: string, crashed = false, local = true): void {
    const before = this.snapshot(server);
    const entry = this.entry(server);
    entry.live = Math.max(0, entry.live - 1);
    if (crashed) {
      if (entry.connectedSinceCrash) entry.crashes.push(this.clock.now().getTime());
      entry.connectedSinceCrash = false;
      entry.lastError = {
        code: 'UPSTREAM_UNAVAILABLE',
        ...(local
          ? {
              message: `Upstream "${server}" exited unexpectedly`,
              hint: `read why in its log: coffer logs --upstream ${server}`,
            }
          : {
              message: `Upstream "${server}" dropped the connection`,
              hint: `check that it is up and its URL: coffer mcp test ${server}`,
            }),
        at: this.clock.now().toISOString(),
      };
    }
    this.report(server, before);
  }

  /**
   * Reconnect delay after recent crashes: none after the first, then doubling from
   * 250 ms up to 5 s, so a server that dies at start is not respawned in a hot loop.
   */
  backoffMs(server: string): number {
    const entry = this.entries.get(server);
    const recent = entry === undefined ? 0 : this.recentCrashes(entry);
    return recent <= 1 ? 0 : Math.min(250 * 2 ** (recent - 2), MAX_BACKOFF_MS);
  }

  forget(server: string): void {
    const before = this.snapshot(server);
    this.entries.delete(server);
    this.report(server, before);
  }

  /**
   * An AUTH_REQUIRED first seen, or met by a list that began, before the server's latest
   * sign-in (that list asked without the new tokens), or a list failure whose list began
   * before the latest list that succeeded: answered since.
   */
  private answered(server: string, error: CofferError, ticket: number | undefined): boolean {
    const entry = this.entries.get(server);
    if (error.code === 'AUTH_REQUIRED') {
      const seen = this.authFailures.get(error) ?? this.moments;
      this.authFailures.set(error, seen);
      const signedInAt = entry?.signedInAt ?? 0;
      if (seen < signedInAt || (ticket !== undefined && ticket < signedInAt)) return true;
    }
    return ticket !== undefined && ticket < (entry?.listedFrom ?? 0);
  }

  private recentCrashes(entry: Entry): number {
    const since = this.clock.now().getTime() - CRASH_WINDOW_MS;
    entry.crashes = entry.crashes.filter((at) => at > since);
    return entry.crashes.length;
  }

  private snapshot(server: string): string | undefined {
    return this.onChange === undefined ? undefined : JSON.stringify(this.status(server));
  }

  /** Only real changes: a list that finds the same counts again is not news. */
  private report(server: string, before: string | undefined): void {
    if (this.onChange === undefined) return;
    const status = this.status(server);
    if (JSON.stringify(status) !== before) this.onChange(server, status);
  }

  private entry(server: string): Entry {
    let entry = this.entries.get(server);
    if (entry === undefined) {
      entry = {
        lastError: null,
        counts: null,
        live: 0,
        failedSinceSuccess: false,
        needsSignIn: false,
        crashes: [],
        connectedSinceCrash: true,
        starting: new Set(),
        lastStart: null,
        protocolVersion: undefined,
        signedInAt: 0,
        listedFrom: 0,
      };
      this.entries.set(server, entry);
    }
    return entry;
  }
}

/** A key or token refused where no OAuth sign-in would help (src/upstream/refused-credentials.ts). */
function refusedOutsideSignIn(error: CofferError): boolean {
  return error.data?.['sign_in'] === false;
}
