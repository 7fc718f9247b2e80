import { spawn, type ChildProcess } from 'node:child_process';
import { getDefaultEnvironment } from '@modelcontextprotocol/sdk/client/stdio.js';
import { ReadBuffer, serializeMessage } from '@modelcontextprotocol/sdk/shared/stdio.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { terminateGroup } from './process-group.js';

export interface StdioProcessOptions {
  readonly command: string;
  readonly args: readonly string[];
  readonly env: Readonly<Record<string, string>>;
  readonly cwd?: string;
  /** Receives stderr; it is always drained so a chatty child never blocks. */
  readonly onStderr?: (chunk: Buffer) => void;
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
  private readonly buffer = new ReadBuffer();
  private exited: Promise<void> = Promise.resolve();

  constructor(private readonly options: StdioProcessOptions) {}

  get pid(): number | undefined {
    return this.child?.pid;
  }

  start(): Promise<void> {
    return new Promise((resolve, reject) => {
      const child = spawn(this.options.command, [...this.options.args], {
        env: { ...getDefaultEnvironment(), ...this.options.env },
        stdio: ['pipe', 'pipe', 'pipe'],
        detached: process.platform !== 'win32',
        windowsHide: true,
        ...(this.options.cwd === undefined ? {} : { cwd: this.options.cwd }),
      });
      this.child = child;
      this.exited = new Promise((done) => child.once('close', () => done()));
      child.once('error', (error) => {
        reject(error);
        this.onerror?.(error);
      });
      child.once('spawn', () => {
        if (child.pid !== undefined) this.options.onSpawn?.(child.pid);
        resolve();
      });
      child.once('close', () => this.onChildClosed(child));
      child.stdin?.on('error', (error) => this.onerror?.(error));
      child.stdout?.on('data', (chunk: Buffer) => this.receive(chunk));
      const onStderr = this.options.onStderr;
      if (onStderr === undefined) child.stderr?.resume();
      else child.stderr?.on('data', (chunk: Buffer) => onStderr(chunk));
    });
  }

  send(message: JSONRPCMessage): Promise<void> {
    const stdin = this.child?.stdin;
    if (stdin === undefined || stdin === null || !stdin.writable)
      return Promise.reject(new Error('Not connected'));
    return new Promise((resolve) => {
      if (stdin.write(serializeMessage(message))) resolve();
      else stdin.once('drain', resolve);
    });
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

  private receive(chunk: Buffer): void {
    this.buffer.append(chunk);
    for (;;) {
      let message: JSONRPCMessage | null;
      try {
        message = this.buffer.readMessage();
      } catch (error) {
        // A garbage line is the upstream's bug; report it and keep reading.
        this.onerror?.(error as Error);
        continue;
      }
      if (message === null) return;
      this.onmessage?.(message);
    }
  }

  private onChildClosed(child: ChildProcess): void {
    if (child.pid !== undefined) {
      // The leader died (crash, or a wrapper that exited): take its group with it.
      void terminateGroup(child.pid, this.options.graceMs ?? 1500);
      this.options.onExit?.(child.pid);
    }
    this.child = undefined;
    this.buffer.clear();
    this.onclose?.();
  }
}
