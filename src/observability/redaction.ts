/**
 * What must never be written to a log. Env values and header values of server
 * definitions are redacted wholesale (any of them may be a token), as is any key that
 * names a secret.
 */
export const REDACTED = '[redacted]';

const SECRET_KEY = /(token|secret|password|passwd|authorization|api[-_]?key|cookie|credential)/i;

/** pino `redact` paths: definition maps whose every value is redacted. */
export const redactPaths = [
  'env.*',
  'headers.*',
  '*.env.*',
  '*.headers.*',
  'definition.env.*',
  'definition.headers.*',
  'token',
  '*.token',
  'authorization',
  '*.authorization',
  'secret',
  '*.secret',
];

export function isSecretKey(key: string): boolean {
  return SECRET_KEY.test(key);
}

/** Deep copy with secret-looking keys and env/header maps redacted; for ad-hoc values. */
export function redact(value: unknown, depth = 0): unknown {
  if (depth > 8 || value === null || typeof value !== 'object') return value;
  if (Array.isArray(value)) return value.map((item) => redact(item, depth + 1));
  const out: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value as Record<string, unknown>)) {
    if (isSecretKey(key)) out[key] = REDACTED;
    else if ((key === 'env' || key === 'headers') && item !== null && typeof item === 'object')
      out[key] = Object.fromEntries(Object.keys(item).map((name) => [name, REDACTED]));
    else out[key] = redact(item, depth + 1);
  }
  return out;
}
