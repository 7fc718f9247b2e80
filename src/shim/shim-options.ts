/**
 * `coffer shim [--lean]`, parsed by hand: commander is not loaded on the shim's path.
 * `--help` never gets here (src/main.ts sends it to the CLI, which documents the flags).
 */
export interface ShimOptions {
  /** Ask the gateway for its lean tool surface (`/mcp?mode=lean`). */
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

export function mcpPath(options: ShimOptions): string {
  return options.lean ? '/mcp?mode=lean' : '/mcp';
}
