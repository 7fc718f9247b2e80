/**
 * Why a remote upstream could not be reached, in words: fetch reports every network
 * failure as "fetch failed" and keeps the reason (ECONNREFUSED, ENOTFOUND, a certificate
 * error) in its `cause` chain, where a user never looks.
 */

const SAYINGS: Readonly<Record<string, string>> = {
  ECONNREFUSED: 'nothing is listening there (connection refused)',
  ENOTFOUND: 'its host name does not resolve',
  EAI_AGAIN: 'its host name could not be resolved right now',
  ECONNRESET: 'the connection was reset',
  ETIMEDOUT: 'the connection timed out',
  UND_ERR_CONNECT_TIMEOUT: 'the connection timed out',
  EHOSTUNREACH: 'its host is unreachable',
  ENETUNREACH: 'its network is unreachable',
};

/** One sentence about the network failure behind `error`, or undefined if it was not one. */
export function networkProblem(error: unknown): string | undefined {
  for (let cause = error, depth = 0; cause instanceof Error && depth < 5; depth += 1) {
    // fetch refuses the ports browsers block (1, 6000, 6667, …) before connecting.
    if (cause.message === 'bad port')
      return 'its port is one fetch refuses to use ("bad port"); serve it on another port';
    const code = (cause as { code?: unknown }).code;
    if (typeof code === 'string') {
      const saying = SAYINGS[code];
      if (saying !== undefined) return saying;
      if (/CERT|SELF_SIGNED|UNABLE_TO_VERIFY/.test(code))
        return `its TLS certificate is not trusted (${code})`;
    }
    cause = cause.cause;
  }
  return namedInMessage(error);
}

const NAMED = new RegExp(`\\b(${Object.keys(SAYINGS).join('|')})\\b`);

/**
 * The legacy SSE transport keeps no cause: its SseError carries the failure only as text
 * ("SSE error: TypeError: fetch failed: connect ECONNREFUSED …"). Read the code there.
 */
function namedInMessage(error: unknown): string | undefined {
  if (!(error instanceof Error)) return undefined;
  const code = NAMED.exec(error.message)?.[1];
  return code === undefined ? undefined : SAYINGS[code];
}
