import { CofferError } from './errors.js';

/**
 * Well-known credential shapes (issue 20.3): text that looks like a private key, a cloud
 * or API token, whoever it belongs to. Coffer does not know these values, so it flags
 * them in activity (and refuses the call when the user opted in to blocking). Only the
 * KIND is ever reported, never the matched text.
 */
export const credentialKinds = [
  'private-key',
  'aws-access-key',
  'aws-secret-key',
  'github-token',
  'slack-token',
  'api-key',
  'bearer-token',
  'jwt',
] as const;

export type CredentialKind = (typeof credentialKinds)[number];

const shapes: readonly (readonly [CredentialKind, RegExp])[] = [
  ['private-key', /-----BEGIN (?:[A-Z0-9]+ )*PRIVATE KEY(?: BLOCK)?-----/],
  ['aws-access-key', /\b(?:AKIA|ASIA)[0-9A-Z]{16}\b/],
  ['aws-secret-key', /aws_?secret_?access_?key["']?\s*[:=]\s*["']?[A-Za-z0-9/+]{40}\b/i],
  ['github-token', /\b(?:gh[pousr]_[A-Za-z0-9]{36,}|github_pat_[A-Za-z0-9_]{50,})\b/],
  ['slack-token', /\bxox[abposr]-[A-Za-z0-9-]{10,}/],
  ['api-key', /\bsk-(?:ant-|proj-)?[A-Za-z0-9_-]{20,}/],
  ['bearer-token', /\bBearer\s+[A-Za-z0-9._~+/-]{16,}=*/i],
  ['jwt', /\beyJ[A-Za-z0-9_-]{8,}\.eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}/],
];

/** A quick pre-check: every shape above contains one of these, so most text skips the regexes. */
const markers = /PRIVATE KEY|AKIA|ASIA|secret|gh[pousr]_|github_pat_|xox|sk-|bearer|eyJ/i;

/** The distinct kinds of credential that appear in `text`, in the order of `credentialKinds`. */
export function findCredentialShapes(text: string): CredentialKind[] {
  if (!markers.test(text)) return [];
  return shapes.filter(([, shape]) => shape.test(text)).map(([kind]) => kind);
}

/** A plain env or header value of a server definition that has a credential's shape. */
export interface PlainCredential {
  readonly kind: 'env' | 'header';
  readonly name: string;
  readonly shape: CredentialKind;
}

/**
 * The credentials a definition keeps as plain values: refused by the server store
 * (gateway/plain-credential-guard.ts), and reported by `coffer doctor` for servers stored
 * before it refused them. Only names and kinds, never the values.
 */
export function plainCredentials(values: {
  readonly env?: Readonly<Record<string, string>> | undefined;
  readonly headers?: Readonly<Record<string, string>> | undefined;
}): PlainCredential[] {
  const found: PlainCredential[] = [];
  const look = (kind: 'env' | 'header', map: Readonly<Record<string, string>> | undefined) => {
    for (const [name, value] of Object.entries(map ?? {})) {
      const [shape] = findCredentialShapes(value);
      if (shape !== undefined) found.push({ kind, name, shape });
    }
  };
  look('env', values.env);
  look('header', values.headers);
  return found;
}

/**
 * The refusal of a definition whose plain env or header value is shaped like a
 * credential, or undefined: the definition is kept in the database and shown by `coffer
 * mcp show`, the UI and the API, where no secret may go. The field is named as the
 * schema's errors name one (`env.NAME`), and the hint says where the value belongs, for
 * this server.
 */
export function plainCredentialError(
  values: Parameters<typeof plainCredentials>[0],
  server: string,
): CofferError | undefined {
  const [found] = plainCredentials(values);
  if (found === undefined) return undefined;
  const { kind, name, shape } = found;
  const [field, secrets] = kind === 'env' ? ['env', 'secret_env'] : ['headers', 'secret_headers'];
  return new CofferError(
    'INVALID_INPUT',
    `${field}.${name}: holds a credential (${shape}); a secret does not go into a server's definition`,
    {
      hint: `keep it as a secret: name it in ${secrets} and store its value (coffer secrets set ${server} --${kind} ${name}; in the UI, the server form's Secrets)`,
    },
  );
}

/** Query parameters whose value is a credential by their name alone. */
const CREDENTIAL_PARAMS = /^(api[-_]?key|apikey|key|token|access[-_]?token|auth|secret|password)$/i;

/**
 * Where a server's URL carries a credential: a password before the host, or a query
 * parameter named like one or shaped like one (`?api_key=…`, `?token=sk-…`). Some
 * servers take their key only that way, so it is said, not refused: the URL is kept in
 * the definition, which `coffer mcp show` and `coffer config export` print. Names only.
 */
export function urlCredentials(url: string | undefined): string[] {
  if (url === undefined || !URL.canParse(url)) return [];
  const parsed = new URL(url);
  const found = parsed.password === '' ? [] : ['a password before the host'];
  if (parsed.pathname.split('/').some(isCredentialText)) found.push('a part of its path');
  for (const [name, value] of parsed.searchParams) {
    if (isCredentialParam(name, value)) found.push(`its query parameter "${name}"`);
  }
  return found;
}

/**
 * The URL with what urlCredentials finds in it replaced by `***`, for printing where the
 * user did not ask to see it (an import's report). A URL with none is given back as it is.
 */
export function maskedUrl(url: string): string {
  if (urlCredentials(url).length === 0) return url;
  const parsed = new URL(url);
  if (parsed.password !== '') parsed.password = '***';
  parsed.pathname = parsed.pathname
    .split('/')
    .map((part) => (isCredentialText(part) ? '***' : part))
    .join('/');
  for (const [name, value] of [...parsed.searchParams])
    if (isCredentialParam(name, value)) parsed.searchParams.set(name, '***');
  return parsed.toString();
}

function isCredentialParam(name: string, value: string): boolean {
  return value !== '' && (CREDENTIAL_PARAMS.test(name) || isCredentialText(value));
}

function isCredentialText(text: string): boolean {
  return text !== '' && findCredentialShapes(text).length > 0;
}
