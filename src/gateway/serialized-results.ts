import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';

/**
 * Results a session sends again and again unchanged (a warm tools/list over a thousand
 * tools is half a megabyte of JSON): marked once, serialised on their first send, and
 * spliced into later answers as text. Keyed by object identity, so a result that changes
 * is a new object and is serialised anew; entries go with their objects (WeakMap).
 */
export class SerializedResults {
  private readonly texts = new WeakMap<object, string | undefined>();

  /** Marks `result` as worth keeping in serialised form. */
  keep(result: object): void {
    if (!this.texts.has(result)) this.texts.set(result, undefined);
  }

  /** One JSON-RPC message as text, reusing a kept result's serialisation. */
  serialize(message: JSONRPCMessage): string {
    const result = 'result' in message ? (message.result as object) : undefined;
    if (result === undefined || !this.texts.has(result)) return JSON.stringify(message);
    let text = this.texts.get(result);
    if (text === undefined) {
      text = JSON.stringify(result);
      this.texts.set(result, text);
    }
    const id = JSON.stringify((message as { id: unknown }).id);
    return `{"jsonrpc":"2.0","id":${id},"result":${text}}`;
  }
}
