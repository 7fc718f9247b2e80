import { isDirectory } from '../config/command-lookup.js';
import { cwdNotFound } from '../domain/ports.js';

/**
 * Why a stdio upstream ended before it finished starting, in words a user can act on:
 * its exit code or signal and the last thing it wrote to stderr (a missing API key, a
 * module not found), or why it could not be spawned at all. The whole stderr is in
 * logs/upstream-<name>.log; this keeps only the tail, for the error message.
 */

/** Enough for the last few lines of a stack trace or an error banner. */
const TAIL_BYTES = 2_048;
/** How much of that tail an error message quotes. */
const QUOTED_CHARS = 300;

export class StartFailure {
  private tail = '';
  private exit: { code: number | null; signal: NodeJS.Signals | null } | undefined;
  private spawnProblem: string | undefined;
  private firstNoise: string | undefined;
  private spawnCode: string | undefined;

  stderr(chunk: Buffer): void {
    // Decode only what can stay: a flood of stderr passes through here chunk by chunk.
    const kept = chunk.length > TAIL_BYTES ? chunk.subarray(chunk.length - TAIL_BYTES) : chunk;
    this.tail = (this.tail + kept.toString('utf8')).slice(-TAIL_BYTES);
  }

  exited(code: number | null, signal: NodeJS.Signals | null): void {
    this.exit = { code, signal };
  }

  /** A stdout line that is not JSON-RPC: the first one is the likeliest culprit. */
  stdoutNoise(line: string): void {
    this.firstNoise ??= clip(line);
  }

  /** The command itself is not there: a PATH problem more often than a typo. */
  get commandNotFound(): boolean {
    return this.spawnCode === 'ENOENT';
  }

  /** What it wrote on stdout that was not JSON-RPC, if anything. */
  get noise(): string | undefined {
    return this.firstNoise;
  }

  /**
   * The spawn itself failed (ENOENT, EACCES): the command is wrong, not the server. Node
   * says ENOENT for a missing working directory too, which is not the command's fault.
   */
  spawnFailed(command: string, error: NodeJS.ErrnoException, cwd?: string): Error {
    const cwdMissing = error.code === 'ENOENT' && cwd !== undefined && !isDirectory(cwd);
    this.spawnCode = cwdMissing ? 'ENOENT_CWD' : error.code;
    this.spawnProblem = cwdMissing
      ? cwdNotFound(cwd)
      : error.code === 'ENOENT'
        ? `command not found: ${command}`
        : error.code === 'EACCES'
          ? `command is not executable: ${command}`
          : `could not run ${command}: ${error.message}`;
    return Object.assign(new Error(this.spawnProblem), { code: error.code });
  }

  /** One sentence, or undefined while nothing is known (the process is still running). */
  describe(): string | undefined {
    if (this.spawnProblem !== undefined) return this.spawnProblem;
    if (this.exit === undefined) return undefined;
    const how =
      this.exit.signal !== null
        ? `was ended by ${this.exit.signal}`
        : `exited with code ${this.exit.code ?? '?'}`;
    const said = lastLine(this.tail);
    return said === undefined ? `it ${how}` : `it ${how}: ${said}`;
  }
}

/** Stack frames, carets and runtime banners say nothing about what went wrong. */
const NOISE = /^(at\s|\^+$|Node\.js v\d|\[coffer\]|File ".*", line \d)/;
const TELLING =
  /error|exception|fatal|cannot|can't|not found|missing|denied|invalid|failed|required/i;

/** The line that most likely says why: the last telling one, else the last one. */
function lastLine(text: string): string | undefined {
  const lines = text
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line !== '' && !NOISE.test(line));
  const chosen = lines.findLast((line) => TELLING.test(line)) ?? lines.at(-1);
  return chosen === undefined ? undefined : clip(chosen);
}

function clip(text: string): string {
  return text.length > QUOTED_CHARS ? `${text.slice(0, QUOTED_CHARS)}…` : text;
}
