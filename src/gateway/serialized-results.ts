import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';

/**
 * What goes on the wire: text, or UTF-8 chunks written in turn (corked, so one writev). A
 * kept result's bytes are one of the chunks, never copied: copying half a megabyte into a
 * fresh buffer per answer costs about what encoding it did.
 */
export type WireText = string | readonly Buffer[];

/** The number of bytes `wire` puts on the wire (an HTTP content-length). */
export function wireLength(wire: WireText): number {
  if (typeof wire === 'string') return Buffer.byteLength(wire);
  return wire.reduce((sum, chunk) => sum + chunk.length, 0);
}

/** `wire` as one string (an SSE event, a batch: rare paths). */
export function wireString(wire: WireText): string {
  return typeof wire === 'string' ? wire : Buffer.concat(wire).toString('utf8');
}

/**
 * Results a session sends again and again unchanged (a warm tools/list over a thousand
 * tools is half a megabyte of JSON): marked once, serialised on their first send, and
 * kept as UTF-8 bytes. A later answer is the request id's few bytes followed by the kept
 * ones: no JSON.stringify, no UTF-8 encoding and no byte count of the whole text per
 * answer (those were most of the daemon's CPU per warm listing). Keyed by object
 * identity, so a result that changes is a new object and is serialised anew; entries go
 * with their objects (WeakMap).
 */
export class SerializedResults {
  /** A kept result's JSON and the message's closing brace, once it was first sent. */
  private readonly kept = new WeakMap<object, Buffer | undefined>();

  /** Marks `result` as worth keeping in serialised form. */
  keep(result: object): void {
    if (!this.kept.has(result)) this.kept.set(result, undefined);
  }

  /**
   * One JSON-RPC message followed by `end` (a line's newline), as it goes on the wire:
   * chunks around a kept result's bytes, text for anything else.
   */
  encode(message: JSONRPCMessage, end = ''): WireText {
    const kept = this.keptBytes(message);
    if (kept === undefined)
      return end === '' ? JSON.stringify(message) : JSON.stringify(message) + end;
    const id = JSON.stringify((message as { id: unknown }).id);
    const head = Buffer.from(`{"jsonrpc":"2.0","id":${id},"result":`);
    return end === '' ? [head, kept] : [head, kept, Buffer.from(end)];
  }

  /** One JSON-RPC message as text (an SSE event, a batch), reusing a kept result's bytes. */
  serialize(message: JSONRPCMessage): string {
    return wireString(this.encode(message));
  }

  private keptBytes(message: JSONRPCMessage): Buffer | undefined {
    const result = 'result' in message ? (message.result as object) : undefined;
    if (result === undefined || !this.kept.has(result)) return undefined;
    let bytes = this.kept.get(result);
    if (bytes === undefined) {
      bytes = Buffer.from(`${JSON.stringify(result)}}`);
      this.kept.set(result, bytes);
    }
    return bytes;
  }
}
