/** The flags of `npm run soak`. */

export const USAGE = `usage: npm run soak -- [--minutes N] [--sessions N] [--churn-seconds N]
  --minutes        how long the load runs (default 10)
  --sessions       concurrent MCP sessions on /mcp (default 32)
  --churn-seconds  replace each session after this long; 0 keeps them (default 60)
  --report FILE    print the report of a saved run (bench/results/soak-*.json) again`;

export interface SoakOptions {
  readonly minutes: number;
  readonly sessions: number;
  readonly churnSeconds: number;
  readonly report: string | undefined;
  readonly help: boolean;
}

export function parseOptions(argv: readonly string[]): SoakOptions {
  const values = new Map<string, number>();
  let help = false;
  let report: string | undefined;
  for (let i = 0; i < argv.length; i += 1) {
    const flag = argv[i]!;
    if (flag === '--help' || flag === '-h') help = true;
    else if (flag === '--report') report = argv[++i];
    else if (['--minutes', '--sessions', '--churn-seconds'].includes(flag)) {
      const value = Number(argv[++i]);
      if (!Number.isFinite(value) || value < 0) throw new Error(`${flag} needs a number ≥ 0`);
      values.set(flag, value);
    } else throw new Error(`unknown argument: ${flag}`);
  }
  return {
    minutes: values.get('--minutes') ?? 10,
    sessions: Math.max(1, Math.round(values.get('--sessions') ?? 32)),
    churnSeconds: values.get('--churn-seconds') ?? 60,
    report,
    help,
  };
}
