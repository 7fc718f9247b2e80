import { CofferError } from '../domain/errors.js';

/** Inclusive range of TCP ports the daemon tries, in order. */
export interface PortRange {
  readonly first: number;
  readonly last: number;
}

/** Research notes: 8000–8009, first free wins. */
export const DEFAULT_PORT_RANGE: PortRange = { first: 8000, last: 8009 };

export const PORT_RANGE_ENV = 'COFFER_PORT_RANGE';

export function formatPortRange(range: PortRange): string {
  return `${range.first}-${range.last}`;
}

const RANGE_PATTERN = /^\s*(\d{1,5})\s*-\s*(\d{1,5})\s*$/;

/** Parses `lo-hi` (inclusive, 1 <= lo <= hi <= 65535); throws INVALID_INPUT otherwise. */
export function parsePortRange(text: string, source = PORT_RANGE_ENV): PortRange {
  const match = RANGE_PATTERN.exec(text);
  const first = Number(match?.[1]);
  const last = Number(match?.[2]);
  if (match === null || first < 1 || last > 65_535 || first > last) {
    throw new CofferError(
      'INVALID_INPUT',
      `${source} must be "lo-hi" with 1 <= lo <= hi <= 65535, got ${JSON.stringify(text)}`,
      { hint: `e.g. ${source}=18000-18009, or unset it to use 8000-8009` },
    );
  }
  return { first, last };
}

/** COFFER_PORT_RANGE when set (tests), else 8000–8009. */
export function portRangeFromEnv(env: NodeJS.ProcessEnv = process.env): PortRange {
  const value = env[PORT_RANGE_ENV];
  return value === undefined || value.trim() === '' ? DEFAULT_PORT_RANGE : parsePortRange(value);
}
