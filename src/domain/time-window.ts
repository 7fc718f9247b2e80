import { CofferError } from './errors.js';

/**
 * `--since` / `?since=`: a duration back from now (`45s`, `30m`, `1h`, `2d`, `1w`) or an
 * ISO 8601 time. Answers an ISO string in the activity log's own format
 * (`toISOString`), because the store compares times as strings.
 */
const RELATIVE = /^(\d+(?:\.\d+)?)(s|m|h|d|w)$/;
const ISO_DATE = /^\d{4}-\d{2}-\d{2}/;
const UNIT_MS: Readonly<Record<string, number>> = {
  s: 1_000,
  m: 60_000,
  h: 3_600_000,
  d: 86_400_000,
  w: 604_800_000,
};

function invalidSince(text: string): CofferError {
  return new CofferError('INVALID_INPUT', `Invalid since "${text}"`, {
    hint: 'give a duration such as 30m, 1h or 2d, or a time such as 2026-01-31T09:00:00Z',
  });
}

export function parseSince(text: string, now: Date): string {
  const trimmed = text.trim().toLowerCase();
  const relative = RELATIVE.exec(trimmed);
  if (relative !== null) {
    const amount = Number(relative[1]);
    const unit = UNIT_MS[relative[2] ?? ''];
    if (unit === undefined || !Number.isFinite(amount)) throw invalidSince(text);
    // A huge duration means "everything": clamp to the epoch rather than an invalid Date.
    return new Date(Math.max(0, now.getTime() - amount * unit)).toISOString();
  }
  if (!ISO_DATE.test(trimmed)) throw invalidSince(text);
  const time = Date.parse(text.trim());
  if (Number.isNaN(time)) throw invalidSince(text);
  return new Date(time).toISOString();
}
