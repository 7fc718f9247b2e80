/**
 * Finds the secrets Coffer stores inside call arguments and results (issue 20.3), in
 * the forms an exfiltrating tool would use: exact, base64 (at any byte alignment, so a
 * secret inside a longer encoded blob is still found), base64url, URL-encoding and hex,
 * each also as it reads inside JSON text.
 * The matcher is built once per change of the stored secrets, not per call; it reports
 * secrets by NAME only and never returns their values.
 */

/** A stored secret as the guard knows it; `owners` are the servers whose definition references it. */
export interface KnownSecret {
  readonly name: string;
  readonly value: string;
  readonly owners: readonly string[];
}

/** A secret found in some text: its name and owners, never its value. */
export interface SecretHit {
  readonly name: string;
  readonly owners: readonly string[];
}

export interface SecretMatcher {
  /** True when there is nothing to look for, so callers can skip the walk entirely. */
  readonly empty: boolean;
  /** The distinct secrets found in `text`. */
  find(text: string): SecretHit[];
  /** `text` with every form of every secret replaced by `[redacted: secret NAME]`. */
  redact(text: string): { readonly text: string; readonly hits: SecretHit[] };
}

/**
 * Shorter values would match ordinary words and numbers (and their encodings would be
 * even shorter), so they are not guarded.
 */
export const MIN_GUARDED_SECRET_LENGTH = 8;

export function redactionFor(name: string): string {
  return `[redacted: secret ${name}]`;
}

export function buildSecretMatcher(secrets: readonly KnownSecret[]): SecretMatcher {
  const byNeedle = new Map<string, SecretHit>();
  for (const secret of secrets) {
    if (secret.value.length < MIN_GUARDED_SECRET_LENGTH) continue;
    const hit: SecretHit = { name: secret.name, owners: secret.owners };
    for (const value of guardedValues(secret.value)) {
      for (const needle of encodedForms(value)) {
        // A needle this short could come from an unrelated secret's alignment tail; too risky.
        if (needle.length >= MIN_GUARDED_SECRET_LENGTH && !byNeedle.has(needle))
          byNeedle.set(needle, hit);
      }
    }
  }
  if (byNeedle.size === 0) return emptyMatcher;
  // Longest first, so the alternation prefers the whole encoded form over a prefix.
  const needles = [...byNeedle.keys()].sort((a, b) => b.length - a.length);
  const pattern = new RegExp(needles.map(escapeRegExp).join('|'), 'g');
  const hitOf = (needle: string): SecretHit => byNeedle.get(needle) ?? unknownHit;
  return {
    empty: false,
    find(text) {
      const found = new Map<string, SecretHit>();
      for (const match of text.matchAll(pattern)) {
        const hit = hitOf(match[0]);
        found.set(hit.name, hit);
      }
      return [...found.values()];
    },
    redact(text) {
      const found = new Map<string, SecretHit>();
      const redacted = text.replace(pattern, (needle) => {
        const hit = hitOf(needle);
        found.set(hit.name, hit);
        return redactionFor(hit.name);
      });
      return { text: redacted, hits: [...found.values()] };
    },
  };
}

/**
 * The value, and for a header value of an auth scheme (`Bearer <token>`, `Basic <…>`,
 * `Token <…>`) its credential alone: that is what a tool would be given or leak, without
 * the word before it.
 */
function guardedValues(value: string): string[] {
  const credential = /^[A-Za-z][\w-]*\s+(\S+)$/.exec(value.trim())?.[1];
  return credential === undefined || credential.length < MIN_GUARDED_SECRET_LENGTH
    ? [value]
    : [value, credential];
}

const unknownHit: SecretHit = { name: 'unknown', owners: [] };

const emptyMatcher: SecretMatcher = {
  empty: true,
  find: () => [],
  redact: (text) => ({ text, hits: [] }),
};

/** Every text form of `value` the guard looks for. */
export function encodedForms(value: string): Set<string> {
  const bytes = Buffer.from(value, 'utf8');
  // In JSON text (what the guard scans) a quote, backslash or control character is escaped.
  const forms = new Set<string>([value, JSON.stringify(value).slice(1, -1)]);
  for (const form of base64Forms(bytes)) {
    forms.add(form);
    forms.add(form.replaceAll('+', '-').replaceAll('/', '_'));
  }
  forms.add(encodeURIComponent(value));
  forms.add(encodeURIComponent(value).replaceAll('%20', '+'));
  const hex = bytes.toString('hex');
  forms.add(hex);
  forms.add(hex.toUpperCase());
  return forms;
}

/**
 * The base64 characters that depend only on the secret's bytes, for each of the three
 * positions the secret can start at inside a longer encoded blob.
 */
function base64Forms(bytes: Buffer): string[] {
  const forms: string[] = [];
  for (const shift of [0, 1, 2]) {
    const total = shift + bytes.length;
    const encoded = Buffer.concat([Buffer.alloc(shift), bytes])
      .toString('base64')
      .replace(/=+$/, '');
    // Characters mixing the padding bytes before, or the unknown bytes after, are dropped.
    const start = shift === 0 ? 0 : shift + 1;
    const end = total % 3 === 0 ? encoded.length : encoded.length - 1;
    forms.push(encoded.slice(start, end));
  }
  return forms;
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
