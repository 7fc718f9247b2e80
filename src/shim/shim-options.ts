import type { HelloRequest } from './daemon-channel.js';

/**
 * `coffer shim [--lean]`, parsed by hand: commander is not loaded on the shim's path.
 * `--help` never gets here (src/main.ts sends it to the CLI, which documents the flags).
 */
export interface ShimOptions {
  /** Ask the gateway for its lean tool surface (as `/mcp?mode=lean` does). */
  readonly lean: boolean;
}

export type ShimArgs =
  | { readonly ok: true; readonly options: ShimOptions }
  | { readonly ok: false; readonly message: string };

export function parseShimArgs(args: readonly string[]): ShimArgs {
  let lean = false;
  for (const arg of args) {
    if (arg === '--lean') lean = true;
    else return { ok: false, message: `unknown argument "${arg}" (usage: coffer shim [--lean])` };
  }
  return { ok: true, options: { lean } };
}

/** The hello's mode: `lean` on request, else whatever the daemon's default is. */
export function helloRequest(options: ShimOptions): HelloRequest {
  return options.lean ? { mode: 'lean' } : {};
}
