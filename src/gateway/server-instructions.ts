import { exposedName } from '../domain/naming.js';

/**
 * What each server said, at its handshake, about how to use it (`instructions`, which
 * clients put in the model's prompt). The aggregated endpoint answers initialize and
 * server/discover before it connects any upstream, so it tells the client what the
 * servers said when they were last connected: in this daemon's run, or a run before
 * (`saved`, a file beside the database: what an upstream says is no choice of the user's,
 * and the database keeps choices, ADR-004).
 */
export interface InstructionsFile {
  read(): ReadonlyMap<string, string>;
  write(said: ReadonlyMap<string, string>): void;
}

const PREAMBLE =
  'Coffer serves the tools, prompts and resources of several MCP servers as one. What each ' +
  `server says about its own use follows; here its tools are named ${exposedName('<server>', '<tool>')}.`;

export class ServerInstructions {
  private readonly said: Map<string, string>;

  constructor(private readonly saved?: InstructionsFile) {
    this.said = new Map(saved?.read());
  }

  /** A connection to `server` was made: what it said (undefined: nothing). */
  heard(server: string, instructions: string | undefined): void {
    if (this.said.get(server) === instructions) return;
    if (instructions === undefined) this.said.delete(server);
    else this.said.set(server, instructions);
    this.saved?.write(this.said);
  }

  /** A server removed or redefined: what it said may no longer hold. */
  forget(server: string): void {
    if (this.said.delete(server)) this.saved?.write(this.said);
  }

  /**
   * The instructions of the aggregated endpoint: each of `servers` that said something,
   * under its name, in the order given. Undefined when none did.
   */
  merged(servers: readonly string[]): string | undefined {
    const parts = servers.flatMap((server) => {
      const text = this.said.get(server);
      return text === undefined ? [] : [`## ${server}\n\n${text.trim()}`];
    });
    if (parts.length === 0) return undefined;
    return `${PREAMBLE}\n\n${parts.join('\n\n')}`;
  }
}
