import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';

const script = join(import.meta.dirname, 'fake-daemon.mjs');

export interface Recorded {
  readonly method: string;
  readonly url: string;
  readonly headers: Record<string, string>;
  readonly body: string;
}

/** A running fake-daemon.mjs: a process discovery takes for the Coffer daemon. */
export interface FakeDaemon {
  readonly pid: number;
  readonly port: number;
  log(): Promise<Recorded[]>;
  control(action: 'forget' | 'notify', body?: unknown): Promise<unknown>;
  kill(signal?: NodeJS.Signals): Promise<void>;
}

export async function startFakeDaemon(env: NodeJS.ProcessEnv, port = 0): Promise<FakeDaemon> {
  const child: ChildProcess = spawn(process.execPath, [script, String(port)], {
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
