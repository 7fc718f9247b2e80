import { request } from 'node:http';

export interface DaemonRequest {
  readonly method: string;
  readonly headers: Readonly<Record<string, string>>;
  readonly body?: string;
  /** The whole exchange, connection to last byte. */
  readonly timeoutMs: number;
}

export interface DaemonAnswer {
  readonly status: number;
  readonly text: string;
}

/** The daemon did not answer in time (the caller names the limit). */
export class DaemonRequestTimeout extends Error {
  override readonly name = 'DaemonRequestTimeout';
}

/**
 * One HTTP exchange with the daemon on loopback, its connection closed after the answer.
 * Not fetch: a command makes a request or two and exits, and fetch cost each command
 * about 0.2 s, undici's first load (~60 ms) and then its idle keep-alive socket, which
 * held the process open ~150 ms after the last answer.
 */
export function daemonRequest(url: string, init: DaemonRequest): Promise<DaemonAnswer> {
  return new Promise((resolve, reject) => {
    const sent = request(url, { method: init.method, headers: init.headers, agent: false });
    const timer = setTimeout(() => {
      sent.destroy(new DaemonRequestTimeout(`no answer within ${init.timeoutMs} ms`));
    }, init.timeoutMs);
    const fail = (error: Error): void => {
      clearTimeout(timer);
      reject(error);
    };
    sent.on('error', fail);
    sent.on('response', (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('error', fail);
      response.on('end', () => {
        clearTimeout(timer);
        const text = Buffer.concat(chunks).toString('utf8');
        resolve({ status: response.statusCode ?? 0, text });
      });
    });
    sent.end(init.body);
  });
}
