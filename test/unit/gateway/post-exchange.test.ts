import type { ServerResponse } from 'node:http';
import { EventEmitter } from 'node:events';
import { describe, expect, it } from 'vitest';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { PostExchange } from '../../../src/gateway/post-exchange.js';
import { SerializedResults } from '../../../src/gateway/serialized-results.js';

/** A response that records its head and every byte written to it. */
class RecordingResponse extends EventEmitter {
  status = 0;
  headers: Record<string, unknown> = {};
  readonly chunks: Buffer[] = [];
  ended = false;
  headersSent = false;
  writableEnded = false;

  writeHead(status: number, headers: Record<string, unknown> = {}): this {
    this.status = status;
    this.headers = headers;
    this.headersSent = true;
    return this;
  }
  write(chunk: string | Buffer): boolean {
    this.chunks.push(Buffer.from(chunk));
    return true;
  }
  end(chunk?: string | Buffer): this {
    if (chunk !== undefined) this.write(chunk);
    this.ended = true;
    this.writableEnded = true;
    this.emit('close');
    return this;
  }
  flushHeaders(): void {}
  body(): string {
    return Buffer.concat(this.chunks).toString('utf8');
  }
}

const answer = (id: number, result: object): JSONRPCMessage =>
  ({ jsonrpc: '2.0', id, result }) as JSONRPCMessage;

function exchange(ids: number[], batch: boolean, results: SerializedResults) {
  const res = new RecordingResponse();
  const post = new PostExchange({
    res: res as unknown as ServerResponse,
    ids,
    batch,
    sessionId: 's-1',
    streamAfterMs: 60_000,
    serialize: (message) => results.serialize(message),
    encode: (message) => results.encode(message),
  });
  return { res, post };
}

describe('PostExchange answers with JSON', () => {
  const list = { tools: [{ name: 'ü✓', description: 'line\u2028sep "q"' }] };

  it('writes a kept result as its bytes, with the content-length of what it wrote', () => {
    const results = new SerializedResults();
    results.keep(list);
    for (const id of [1, 2]) {
      const { res, post } = exchange([id], false, results);
      expect(post.deliver(answer(id, list), id)).toBe(true);
      expect(res.body()).toBe(JSON.stringify(answer(id, list)));
      expect(res.headers['content-length']).toBe(Buffer.byteLength(res.body()));
      expect(res.status).toBe(200);
      expect(res.ended).toBe(true);
    }
  });

  it('joins a batch with a kept result in it as one JSON array', () => {
    const results = new SerializedResults();
    results.keep(list);
    const { res, post } = exchange([1, 2], true, results);
    post.deliver(answer(2, { other: true }), 2);
    post.deliver(answer(1, list), 1);
    const expected = `[${JSON.stringify(answer(1, list))},${JSON.stringify(answer(2, { other: true }))}]`;
    expect(res.body()).toBe(expected);
    expect(res.headers['content-length']).toBe(Buffer.byteLength(expected));
  });
});
