import { CofferError } from '../domain/errors.js';
import { UpstreamRpcError } from '../domain/ports.js';
import { buildSecretMatcher, type SecretMatcher } from '../domain/secret-scan.js';
import type { TransportOptions } from './client-transport.js';

/**
 * An upstream's errors with its own secrets hidden. A server may echo what it was sent
 * ("bad key sk-…" in an HTTP 401 body, a token on stderr as it exits), and the error goes
 * on to the agent, the server's last error (API, UI, `coffer mcp show`) and the log. Its
 * own secrets are the ones it was sent, so they are the ones it can echo; results pass the
 * daemon-wide secret guard, errors pass this, synchronously, where they are made.
 */
export type ErrorRedactor = (error: Error) => Error;

export function errorRedactor(
  server: string,
  secrets: Pick<TransportOptions, 'extraEnv' | 'extraHeaders'>,
): ErrorRedactor {
  const values = [
    ...Object.entries(secrets.extraEnv ?? {}),
    ...Object.entries(secrets.extraHeaders ?? {}),
  ].map(([name, value]) => ({ name, value, owners: [server] }));
  const matcher = buildSecretMatcher(values);
  if (matcher.empty) return (error) => error;
  return (error) => redactError(error, matcher);
}

function redactError(error: Error, matcher: SecretMatcher): Error {
  const text = (value: string) => matcher.redact(value).text;
  const shown = [error.message, JSON.stringify(dataOf(error) ?? null), String(causeOf(error))];
  if (!shown.some((part) => matcher.find(part).length > 0)) return error;
  // The cause is dropped: it holds the text unredacted, and the log would print it.
  if (error instanceof CofferError)
    return new CofferError(error.code, text(error.message), {
      ...(error.hint === undefined ? {} : { hint: text(error.hint) }),
      ...(error.data === undefined
        ? {}
        : { data: redactData(error.data, matcher) as Readonly<Record<string, unknown>> }),
    });
  if (error instanceof UpstreamRpcError)
    return new UpstreamRpcError(error.code, text(error.message), redactData(error.data, matcher));
  const plain = new Error(text(error.message));
  plain.name = error.name;
  return plain;
}

function dataOf(error: Error): unknown {
  return error instanceof CofferError || error instanceof UpstreamRpcError ? error.data : undefined;
}

function causeOf(error: Error): unknown {
  return error.cause instanceof Error ? error.cause.message : error.cause;
}

function redactData(data: unknown, matcher: SecretMatcher): unknown {
  if (data === undefined) return undefined;
  return JSON.parse(matcher.redact(JSON.stringify(data)).text) as unknown;
}
