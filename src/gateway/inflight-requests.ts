/**
 * Which downstream requests of a session are waiting on which upstream. When an
 * upstream asks the client something (sampling, elicitation, roots) while serving a
 * call, the question rides on that call's response stream: clients that never open
 * the standalone GET stream still receive it. The stdio wire does not say which call
 * caused the question, so the most recent open call to that upstream is taken.
 */
export class InflightRequests {
  private readonly byServer = new Map<string, (string | number)[]>();

  begin(server: string, requestId: string | number): () => void {
    const list = this.byServer.get(server) ?? [];
    list.push(requestId);
    this.byServer.set(server, list);
    return () => {
      const at = list.indexOf(requestId);
      if (at >= 0) list.splice(at, 1);
      if (list.length === 0 && this.byServer.get(server) === list) this.byServer.delete(server);
    };
  }

  latest(server: string): string | number | undefined {
    const list = this.byServer.get(server);
    return list?.[list.length - 1];
  }

  /**
   * The request waiting on `server` when it is the only one that `canAsk` (all, unless
   * told); none when several are.
   */
  sole(
    server: string,
    canAsk: (request: string | number) => boolean = () => true,
  ): string | number | undefined {
    const candidates = (this.byServer.get(server) ?? []).filter(canAsk);
    return candidates.length === 1 ? candidates[0] : undefined;
  }
}
