import { randomBytes } from 'node:crypto';
import { CofferError } from '../domain/errors.js';
import type { Clock, JsonObject, UpstreamConnection } from '../domain/ports.js';
import {
  TASK_ID_ENTROPY_BYTES,
  mintTaskId,
  serverOfTaskId,
  taskHoldUntil,
} from '../domain/task-ids.js';
import type { Every } from './session-reaper.js';

/** A session as its tasks see it: the one that may reach them, and where their news goes. */
export interface TaskOwner {
  /** False once the session closed: its tasks may then be claimed by the next session. */
  readonly open: boolean;
  readonly notify: (method: string, params: JsonObject) => void;
}

/** A closed session's upstream connections, as the registry holds them for its tasks. */
export interface HeldConnections {
  closeAll(): Promise<void>;
  /** Closes the connection to one server (removed, disabled or redefined). */
  evict(server: string): Promise<void>;
}

/** One upstream task, under the id Coffer gave the client. */
export interface TaskEntry {
  readonly id: string;
  readonly server: string;
  readonly upstreamId: string;
  /** The upstream connection the task runs on: its requests go there, whoever asks. */
  readonly connection: UpstreamConnection;
  /** The session whose connection that is (and who closes it). */
  readonly origin: TaskOwner;
  readonly holdUntil: number;
  owner: TaskOwner;
  status: unknown;
  /** tasks/result answered once: a closed session no longer needs to keep it. */
  fetched: boolean;
}

export interface TaskRegistryOptions {
  readonly clock: Clock;
  /** The longest Coffer keeps a task (and its upstream connection), whatever its ttl: 1 h. */
  readonly maxHoldMs?: number;
  /** 32 hex digits of fresh randomness per call (tests pass a fixed sequence). */
  readonly entropy?: () => string;
  /** The sweep timer (expired tasks, held connections); tests drive it by hand. */
  readonly every?: Every;
  readonly sweepMs?: number;
}

const DEFAULT_MAX_HOLD_MS = 60 * 60_000;
const DEFAULT_SWEEP_MS = 30_000;
const upstreamKey = (server: string, upstreamId: string) => `${server}\u0000${upstreamId}`;

/**
 * Every task the daemon relays, across sessions (docs/TASKS.md). A task belongs to the
 * session that created it; when that session closes, its connection to the task's
 * upstream is held here until the task is done with (fetched, cancelled or past its
 * ttl), and the next session that presents the id takes it over.
 */
export class TaskRegistry {
  private readonly byId = new Map<string, TaskEntry>();
  private readonly byUpstream = new Map<TaskOwner, Map<string, TaskEntry>>();
  /** Closed sessions' connections, kept for their tasks. */
  private readonly held = new Map<TaskOwner, HeldConnections>();
  private readonly watched = new WeakSet<UpstreamConnection>();
  private readonly entropy: () => string;
  private cancelTimer: (() => void) | undefined;

  constructor(private readonly options: TaskRegistryOptions) {
    this.entropy = options.entropy ?? (() => randomBytes(TASK_ID_ENTROPY_BYTES).toString('hex'));
  }

  /** A task an upstream just created for `origin`'s session: minted an id and kept. */
  record(origin: TaskOwner, connection: UpstreamConnection, upstreamTask: JsonObject): TaskEntry {
    const upstreamId = upstreamTask['taskId'];
    if (typeof upstreamId !== 'string') throw new Error('an upstream task without a taskId');
    const entry: TaskEntry = {
      id: mintTaskId(connection.server, this.entropy()),
      server: connection.server,
      upstreamId,
      connection,
      origin,
      owner: origin,
      holdUntil: taskHoldUntil(this.now(), upstreamTask['ttl'], this.maxHoldMs),
      status: upstreamTask['status'],
      fetched: false,
    };
    this.byId.set(entry.id, entry);
    const mine = this.byUpstream.get(origin) ?? new Map<string, TaskEntry>();
    mine.set(upstreamKey(entry.server, upstreamId), entry);
    this.byUpstream.set(origin, mine);
    this.watch(connection);
    this.cancelTimer ??= (this.options.every ?? unrefInterval)(
      this.options.sweepMs ?? DEFAULT_SWEEP_MS,
      () => this.sweep(),
    );
    return entry;
  }

  /**
   * The task `id` names, for `caller`: its own, or one whose session has closed (then it
   * becomes the caller's). Anything else, expired included, is TASK_NOT_FOUND: a live
   * session's task is never reachable from another, not even to say that it exists.
   */
  claim(caller: TaskOwner, id: unknown): TaskEntry {
    const entry = typeof id === 'string' ? this.byId.get(id) : undefined;
    if (entry !== undefined && this.now() >= entry.holdUntil) this.forget(entry);
    else if (entry !== undefined && (entry.owner === caller || !entry.owner.open)) {
      entry.owner = caller;
      return entry;
    }
    throw new CofferError('TASK_NOT_FOUND', `Unknown task "${String(id)}"`, {
      hint: 'a task is reachable from the session that created it, until its ttl passes',
      ...(typeof id === 'string' && serverOfTaskId(id) !== undefined
        ? { data: { server: serverOfTaskId(id) } }
        : {}),
    });
  }

  /** The caller's tasks that have not expired. */
  owned(caller: TaskOwner): TaskEntry[] {
    this.dropExpired();
    return [...this.byId.values()].filter((entry) => entry.owner === caller);
  }

  /** The task an upstream of `origin`'s session means by its own id. */
  fromUpstream(origin: TaskOwner, server: string, upstreamId: string): TaskEntry | undefined {
    return this.byUpstream.get(origin)?.get(upstreamKey(server, upstreamId));
  }

  /**
   * `origin`'s session closed. Returns the servers whose connections its tasks still
   * need; the caller closes the others. Those are closed once no task needs them.
   */
  release(origin: TaskOwner, connections: HeldConnections): ReadonlySet<string> {
    const needed = this.neededServers(origin);
    if (needed.size > 0) this.held.set(origin, connections);
    // It may also have owned tasks it took over: their connections may go now.
    for (const other of [...this.held.keys()]) if (other !== origin) this.closeIfUnneeded(other);
    return needed;
  }

  /** A server was removed, disabled or redefined: no held connection to it may stay. */
  async serverChanged(server: string): Promise<void> {
    await Promise.allSettled([...this.held.values()].map((held) => held.evict(server)));
  }

  /** A task was fetched or cancelled: a closed session's connection may no longer be needed. */
  settled(entry: TaskEntry): void {
    this.closeIfUnneeded(entry.origin);
  }

  /** Drops expired tasks and closes held connections nothing needs any more. */
  sweep(): void {
    this.dropExpired();
    for (const origin of [...this.held.keys()]) this.closeIfUnneeded(origin);
    if (this.byId.size === 0 && this.held.size === 0) this.stopTimer();
  }

  /** The daemon stops: every held connection is closed. */
  async closeAll(): Promise<void> {
    this.stopTimer();
    const closing = [...this.held.values()];
    this.held.clear();
    this.byId.clear();
    this.byUpstream.clear();
    await Promise.allSettled(closing.map((held) => held.closeAll()));
  }

  /**
   * The servers whose connections `origin`'s tasks need: a task is needed until its hold
   * ends while a live session owns it, and, once none does, until it is fetched or cancelled.
   */
  private neededServers(origin: TaskOwner): Set<string> {
    const now = this.now();
    const servers = new Set<string>();
    for (const entry of this.byUpstream.get(origin)?.values() ?? []) {
      const unfinished = !entry.fetched && entry.status !== 'cancelled';
      if (now < entry.holdUntil && (entry.owner.open || unfinished)) servers.add(entry.server);
    }
    return servers;
  }

  private closeIfUnneeded(origin: TaskOwner): void {
    const held = this.held.get(origin);
    if (held === undefined || this.neededServers(origin).size > 0) return;
    this.held.delete(origin);
    for (const entry of [...(this.byUpstream.get(origin)?.values() ?? [])]) this.forget(entry);
    void held.closeAll().catch(() => undefined);
  }

  private dropExpired(): void {
    const now = this.now();
    for (const entry of [...this.byId.values()]) if (now >= entry.holdUntil) this.forget(entry);
  }

  /** An upstream connection that ends takes its tasks with it (a restart forgets them). */
  private watch(connection: UpstreamConnection): void {
    if (this.watched.has(connection)) return;
    this.watched.add(connection);
    void connection.closed.then(() => {
      for (const entry of [...this.byId.values()])
        if (entry.connection === connection) this.forget(entry);
      for (const origin of [...this.held.keys()]) this.closeIfUnneeded(origin);
    });
  }

  private forget(entry: TaskEntry): void {
    this.byId.delete(entry.id);
    const mine = this.byUpstream.get(entry.origin);
    mine?.delete(upstreamKey(entry.server, entry.upstreamId));
    if (mine?.size === 0) this.byUpstream.delete(entry.origin);
  }

  private stopTimer(): void {
    this.cancelTimer?.();
    this.cancelTimer = undefined;
  }

  private now(): number {
    return this.options.clock.now().getTime();
  }

  private get maxHoldMs(): number {
    return this.options.maxHoldMs ?? DEFAULT_MAX_HOLD_MS;
  }
}

function unrefInterval(ms: number, tick: () => void): () => void {
  const timer = setInterval(tick, ms);
  timer.unref();
  return () => clearInterval(timer);
}
