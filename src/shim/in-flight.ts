import { idKey, type JsonRpcId } from './json-rpc.js';

/**
 * Requests waiting for an answer, each with the channel generation it went out on: the
 * client's (answered by the daemon) and the daemon's (answered by the client). An answer
 * counts only on the channel that asked; a lost channel fails the client's requests.
 */
export class InFlight {
  private readonly client = new Map<string, { id: JsonRpcId; generation: number }>();
  private readonly daemon = new Map<string, number>();

  get size(): number {
    return this.client.size;
  }

  /** A client request with this id went out and awaits its answer. */
  has(id: JsonRpcId): boolean {
    return this.client.has(idKey(id));
  }

  /** A client request went out on `generation`. */
  sent(id: JsonRpcId, generation: number): void {
    this.client.set(idKey(id), { id, generation });
  }

  forget(id: JsonRpcId): void {
    this.client.delete(idKey(id));
  }

  /** The daemon answered `id` on `generation`: true the first time, on the right channel. */
  answered(id: JsonRpcId, generation: number): boolean {
    if (this.client.get(idKey(id))?.generation !== generation) return false;
    this.client.delete(idKey(id));
    return true;
  }

  /** Channel `generation` is gone: the client requests sent on it, now forgotten. */
  lost(generation: number): JsonRpcId[] {
    const ids: JsonRpcId[] = [];
    for (const [key, entry] of this.client) {
      if (entry.generation !== generation) continue;
      this.client.delete(key);
      ids.push(entry.id);
    }
    return ids;
  }

  /** The daemon asked the client something on `generation`. */
  asked(id: JsonRpcId, generation: number): void {
    this.daemon.set(idKey(id), generation);
  }

  /** The client answered `id`: worth sending unless the channel that asked is gone. */
  answerIsLive(id: JsonRpcId, live: number | undefined): boolean {
    const generation = this.daemon.get(idKey(id));
    this.daemon.delete(idKey(id));
    return generation === undefined || generation === live;
  }
}
