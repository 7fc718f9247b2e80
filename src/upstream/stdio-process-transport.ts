import { spawn, type ChildProcess } from 'node:child_process';
import { getDefaultEnvironment } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { LineReader } from '../domain/line-reader.js';
import { launchFor } from './process-launch.js';
import { parseJsonRpcLine } from './jsonrpc-envelope.js';
import { terminateGroup } from './process-group.js';
import { StartFailure } from './start-failure.js';

/** How much of a garbage line its note in the log quotes. */
const GARBAGE_NOTE_CHARS = 200;

/**
 * One stdout line is one JSON-RPC message; a longer one is cut off. Generous, for big
 * image results, but bounded: the SDK's own reader throws past 10 MiB from inside a
 * stream handler, which took the whole daemon down.
 */
export const MAX_LINE_BYTES = 32 * 1024 * 1024;

export interface StdioProcessOptions {
  readonly command: string;
  readonly args: readonly string[];
  readonly env: Readonly<Record<string, string>>;
  readonly cwd?: string;
  /** The PATH the command is found on (the login shell's, merged); the inherited one when absent. */
  readonly searchPath?: string;
  /**
   * Receives stderr; it is always drained so a chatty child never blocks. Notes about
   * stdout lines that were not JSON-RPC arrive here too, so they land in the same log.
   */
  readonly onStderr?: (chunk: Buffer) => void;
  /** Stderr ended: what is left of its last line, held back until a newline, can go. */
  readonly onStderrEnd?: () => void;
  /** How long a closing child gets after stdin ends, and again after SIGTERM. */
  readonly graceMs?: number;
  readonly onSpawn?: (pid: number) => void;
  readonly onExit?: (pid: number) => void;
}

/**
 * The SDK's stdio client transport, but the child leads its own process group and
 * closing ends the whole group (stdin end → SIGTERM → SIGKILL): wrappers like `npx` or
 * `sh -c` leave no grandchildren behind (DESIGN.md §1).
 */
export class StdioProcessTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;
  private child: ChildProcess | undefined;
  private reader = this.newReader();
  /** Set once the child broke the framing beyond repair: the rest of its stdout is ignored. */
  private cutOff = false;
  private exited: Promise<void> = Promise.resolve();
  /** Settles when the server's stdin drains (or closes), while a write waits for it. */
  private drained: Promise<void> | undefined;
  /** Why the child ended, if it did: read when the handshake fails. */
  readonly startFailure = new StartFailure();

  constructor(private readonly options: StdioProcessOptions) {}

  get pid(): number | undefined {
    return this.child?.pid;
  }

  start(): Promise<void> {
    this.cutOff = false;
    this.reader = this.newReader();
    return new Promise((resolve, reject) => {
      const env = {
        ...getDefaultEnvironment(),
        ...(this.options.searchPath === undefined ? {} : { PATH: this.options.searchPath }),
        ...this.options.env,
      };
      const launch = launchFor(this.options.command, this.options.args, {
        platform: process.platform,
        searchPath: env['PATH'],
        pathExt: process.env['PATHEXT'],
        comSpec: process.env['ComSpec'],
        ...(this.options.cwd === undefined ? {} : { cwd: this.options.cwd }),
      });
      const child = spawn(launch.command, [...launch.args], {
        env,
        stdio: ['pipe', 'pipe', 'pipe'],
        detached: process.platform !== 'win32',
        windowsHide: true,
        windowsVerbatimArguments: launch.windowsVerbatimArguments,
        ...(this.options.cwd === undefined ? {} : { cwd: this.options.cwd }),
      });
      this.child = child;
      this.exited = new Promise((done) => child.once('close', () => done()));
      child.once('error', (error) => {
        reject(this.startFailure.spawnFailed(this.options.command, error, this.options.cwd));
        this.onerror?.(error);
      });
      child.once('spawn', () => {
        if (child.pid !== undefined) this.options.onSpawn?.(child.pid);
        resolve();
      });
      child.once('close', (code, signal) => this.onChildClosed(child, code, signal));
      child.stdin?.on('error', (error) => this.onerror?.(error));
      child.stdout?.on('data', (chunk: Buffer) => this.receive(chunk));
      // No answer can come any more. A process of the server's that still holds stderr
      // would keep 'close' away, and every call in flight waiting, until it exited.
      child.stdout?.once('end', () => this.stdoutEnded(child));
      child.stderr?.on('data', (chunk: Buffer) => {
        this.startFailure.stderr(chunk);
        this.options.onStderr?.(chunk);
      });
      child.stderr?.once('end', () => this.options.onStderrEnd?.());
    });
  }

  send(message: JSONRPCMessage): Promise<void> {
    const stdin = this.child?.stdin;
    if (stdin === undefined || stdin === null || !stdin.writable)
      return Promise.reject(new Error('Not connected'));
    if (stdin.write(`${JSON.stringify(message)}\n`)) return Promise.resolve();
    // One wait for all writes behind a full pipe: a listener per message would pile up
    // (thousands, and Node's MaxListenersExceededWarning) for a server slow to read.
    this.drained ??= new Promise<void>((resolve) => {
      const done = (): void => {
        stdin.off('drain', done);
        stdin.off('close', done);
        this.drained = undefined;
        resolve();
      };
      stdin.once('drain', done);
      stdin.once('close', done);
    });
    return this.drained;
  }

  async close(): Promise<void> {
    const child = this.child;
    if (child === undefined) return;
    const grace = this.options.graceMs ?? 1500;
    child.stdin?.end();
    const exitedInTime = await Promise.race([
      this.exited.then(() => true),
      new Promise<boolean>((resolve) =>
        setTimeout(() => resolve(false), Math.min(grace, 300)).unref(),
      ),
    ]);
    // Even when the direct child left, its group may not have: signal the group anyway.
    if (child.pid !== undefined) await terminateGroup(child.pid, exitedInTime ? 200 : grace);
    await Promise.race([this.exited, new Promise((resolve) => setTimeout(resolve, 1000).unref())]);
  }

  private newReader(): LineReader {
    return new LineReader(
      { onLine: (line) => this.deliver(line), onOverflow: () => this.cutOffOverlongLine() },
      MAX_LINE_BYTES,
    );
  }

  private receive(chunk: Buffer): void {
    if (!this.cutOff) this.reader.push(chunk);
  }

  private deliver(line: string): void {
    if (this.cutOff) return;
    let message: JSONRPCMessage;
    try {
      // The envelope only: what is inside is relayed verbatim, never schema-parsed.
      message = parseJsonRpcLine(line) as JSONRPCMessage;
    } catch (error) {
      // A garbage line is the upstream's bug (often a stray console.log): note it in the
      // server's log, where its stderr goes, and keep reading; the next line may be fine.
      this.note(`ignored a line on stdout that is not JSON-RPC: ${quote(line)}`);
      this.startFailure.stdoutNoise(line);
      this.onerror?.(error as Error);
      return;
    }
    this.onmessage?.(message);
  }

  /**
   * No newline within MAX_LINE_BYTES: there is no message boundary left to resync on.
   * End the child, so its calls fail now (UPSTREAM_UNAVAILABLE) instead of at their
   * timeout, and the next call starts a fresh one.
   */
  private cutOffOverlongLine(): void {
    this.cutOff = true;
    const limit = `${MAX_LINE_BYTES / 1024 / 1024} MiB`;
    this.note(`closing the upstream: it wrote a stdout line longer than ${limit}`);
    this.onerror?.(new Error(`upstream stdout line longer than ${limit}`));
    const pid = this.child?.pid;
    if (pid !== undefined) void terminateGroup(pid, this.options.graceMs ?? 1500);
  }

  private note(text: string): void {
    this.options.onStderr?.(Buffer.from(`[coffer] ${text}\n`));
  }

  private stdoutEnded(child: ChildProcess): void {
    if (child.pid === undefined || this.child !== child) return;
    void terminateGroup(child.pid, this.options.graceMs ?? 1500);
  }

  private onChildClosed(
    child: ChildProcess,
    code: number | null,
    signal: NodeJS.Signals | null,
  ): void {
    this.startFailure.exited(code, signal);
    if (child.pid !== undefined) {
      // The leader died (crash, or a wrapper that exited): take its group with it.
      void terminateGroup(child.pid, this.options.graceMs ?? 1500);
      this.options.onExit?.(child.pid);
    }
    this.child = undefined;
    this.onclose?.();
  }
}

function quote(line: string): string {
  const shown = JSON.stringify(line.slice(0, GARBAGE_NOTE_CHARS));
  return line.length > GARBAGE_NOTE_CHARS ? `${shown}… (${line.length} chars)` : shown;
}
