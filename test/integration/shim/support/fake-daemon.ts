import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';

const script = join(import.meta.dirname, 'fake-daemon.mjs');

/** One line the fake got on its shim channel, or a connection's end. */
export interface Recorded {
  /** 1, 2, …: one per shim connection. */
  readonly connection: number;
  readonly kind: 'hello' | 'line' | 'closed';
  readonly line: string;
}

/** A running fake-daemon.mjs: a process discovery takes for the Coffer daemon. */
export interface FakeDaemon {
  readonly pid: number;
  readonly port: number;
  log(): Promise<Recorded[]>;
  control(action: 'forget' | 'notify', body?: unknown): Promise<unknown>;
  kill(signal?: NodeJS.Signals): Promise<void>;
}

export async function startFakeDaemon(
  env: NodeJS.ProcessEnv,
  port = 0,
  options: { socket?: boolean } = {},
): Promise<FakeDaemon> {
  const args = [script, String(port), ...(options.socket === false ? ['--no-socket'] : [])];
  const child: ChildProcess = spawn(process.execPath, args, {
    env,
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const exited = new Promise<void>((done) => child.once('exit', () => done()));
  const bound = await new Promise<number>((resolve, reject) => {
    let out = '';
    child.stdout!.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const match = /ready (\d+)/.exec(out);
      if (match) resolve(Number(match[1]));
    });
    child.once('exit', (code) => reject(new Error(`fake daemon exited ${String(code)}`)));
  });
  const base = `http://127.0.0.1:${bound}/__control`;
  return {
    pid: child.pid!,
    port: bound,
    log: async () => (await (await fetch(`${base}/log`)).json()) as Recorded[],
    control: async (action, body) =>
      (
        await fetch(`${base}/${action}`, {
          method: 'POST',
          body: body === undefined ? '' : JSON.stringify(body),
        })
      ).json(),
    kill: async (signal = 'SIGKILL') => {
      if (child.exitCode === null && child.signalCode === null) child.kill(signal);
      await exited;
    },
  };
}
