/** Number formatting and markdown tables for the report. */

export function ms(value: number | undefined, digits = 2): string {
  return value === undefined || !Number.isFinite(value) ? '—' : value.toFixed(digits);
}

export function ratio(value: number | undefined): string {
  return value === undefined || !Number.isFinite(value) ? '—' : `${value.toFixed(2)}×`;
}

/** A signed figure with two decimals (a difference, a slope); — when there is none. */
export function signed(value: number | undefined): string {
  if (value === undefined || !Number.isFinite(value)) return '—';
  return `${value >= 0 ? '+' : '−'}${Math.abs(value).toFixed(2)}`;
}

export function count(value: number | undefined): string {
  return value === undefined || !Number.isFinite(value)
    ? '—'
    : Math.round(value).toLocaleString('en-US');
}

export function mb(value: number | undefined): string {
  return value === undefined || !Number.isFinite(value) ? '—' : `${value.toFixed(1)} MB`;
}

export function table(header: readonly string[], rows: readonly (readonly string[])[]): string {
  const line = (cells: readonly string[]) => `| ${cells.join(' | ')} |`;
  const rule = header.map((cell, i) => (i === 0 ? '---' : '---:'));
  return [line(header), line(rule), ...rows.map(line)].join('\n');
}
