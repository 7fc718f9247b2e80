import type { Colors } from './colors.js';

/**
 * Makes a pino JSON line readable: `time LEVEL message key=value …`, the traceId
 * kept (it is what `coffer activity` and CLI errors point to). Lines that are not
 * JSON (an upstream's stderr) pass through unchanged.
 */
const LEVELS: Readonly<Record<number, string>> = {
  10: 'TRACE',
  20: 'DEBUG',
  30: 'INFO',
  40: 'WARN',
  50: 'ERROR',
  60: 'FATAL',
};
const HIDDEN = new Set(['time', 'level', 'msg', 'pid', 'hostname']);

function levelOf(value: unknown, colors: Colors): string {
  const label =
    typeof value === 'number' ? (LEVELS[value] ?? String(value)) : String(value).toUpperCase();
  if (label === 'ERROR' || label === 'FATAL') return colors.red(label);
  if (label === 'WARN' || label === 'WARNING') return colors.yellow(label);
  return label;
}

function valueText(value: unknown): string {
  return typeof value === 'string' ? value : JSON.stringify(value);
}

export function formatLogLine(line: string, colors: Colors): string {
  if (!line.startsWith('{')) return line;
  let record: Record<string, unknown>;
  try {
    const parsed: unknown = JSON.parse(line);
    if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) return line;
    record = parsed as Record<string, unknown>;
  } catch {
    return line;
  }
  const parts = [colors.dim(valueText(record['time'] ?? '')), levelOf(record['level'], colors)];
  if (record['msg'] !== undefined) parts.push(valueText(record['msg']));
  for (const [key, value] of Object.entries(record)) {
    if (!HIDDEN.has(key)) parts.push(`${colors.dim(`${key}=`)}${valueText(value)}`);
  }
  return parts.join(' ');
}
