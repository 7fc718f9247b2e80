import { request } from 'node:http';

export interface RawResponse {
  readonly status: number;
  readonly headers: Record<string, string | string[] | undefined>;
  readonly body: string;
}

export interface RawRequest {
  readonly port: number;
  readonly method: string;
  readonly path: string;
  /** An array is sent as that header repeated, once per value. */
  readonly headers?: Record<string, string | string[]>;
  readonly body?: Buffer | string;
  /** A hung answer fails the property instead of the whole test file. */
  readonly timeoutMs?: number;
}

/**
 * One request on its own connection, through node:http rather than fetch: fetch would
 * refuse to send a forged Host, invalid UTF-8 stays bytes here, and a 413 that closes
 * the connection mid-upload is still read.
 */
export function rawRequest(options: RawRequest): Promise<RawResponse> {
  const { port, method, path, headers = {}, body, timeoutMs = 15_000 } = options;
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    // One deadline for the whole exchange: a stream that sends its headers, then
    // nothing, is as hung as a request nobody answers.
    const timer = setTimeout(() => {
      req.destroy();
      const partial = Buffer.concat(chunks).toString('utf8').slice(0, 300);
      reject(new Error(`no complete answer within ${timeoutMs} ms: ${method} ${path} ${partial}`));
    }, timeoutMs);
    const req = request({ host: '127.0.0.1', port, method, path, headers, agent: false }, (res) => {
      const done = (): void => {
        clearTimeout(timer);
        resolve({
          status: res.statusCode ?? 0,
          headers: res.headers,
          body: Buffer.concat(chunks).toString('utf8'),
        });
      };
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', done);
      // A 413 ends with `Connection: close` while the upload may still be going: the
      // socket can be reset after the whole answer arrived, so 'end' never comes.
      res.on('close', () => {
        if (res.complete || (res.statusCode === 413 && chunks.length > 0)) done();
      });
      res.on('error', (error) => {
        clearTimeout(timer);
        reject(error);
      });
    });
    // The daemon may answer 413 and close before the upload ends: the answer counts.
    req.on('error', (error: NodeJS.ErrnoException) => {
      if (error.code === 'EPIPE' || error.code === 'ECONNRESET') return;
      clearTimeout(timer);
      reject(error);
    });
    req.end(body);
  });
}
