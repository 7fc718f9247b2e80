/**
 * The era bridge for a 2025 client: a modern upstream answers a request with
 * `resultType: "input_required"` and the questions it needs answered (`inputRequests`:
 * elicitation, sampling, roots); Coffer asks each as a server→client request on the
 * session that made the call (its peer checks the client declared the capability), then
 * retries the request with the answers (`inputResponses`) and the server's
 * `requestState`. Nothing is asked of any other session.
 */
import type { CancelSignal } from '../domain/cancel-signal.js';
import { UpstreamRpcError, type JsonObject, type UpstreamPeer } from '../domain/ports.js';
import { isObject } from './jsonrpc-envelope.js';
import { isInputRequired } from './modern-results.js';

/** A server that keeps asking is cut off (the spec leaves the bound to the client). */
export const MAX_INPUT_ROUNDS = 8;

export interface InputRound {
  readonly server: string;
  readonly peer: UpstreamPeer;
  readonly signal: CancelSignal;
  /** Sends the request again with these params. */
  readonly retry: (params: JsonObject) => Promise<JsonObject>;
}

/** The final result of a request whose first answer was `result`. */
export async function answerInputRequired(
  result: JsonObject,
  params: JsonObject,
  round: InputRound,
): Promise<JsonObject> {
  let current = result;
  for (let rounds = 0; isInputRequired(current); rounds += 1) {
    if (rounds >= MAX_INPUT_ROUNDS) throw tooManyRounds(round.server);
    const inputResponses = await askAll(current['inputRequests'], round);
    const state = current['requestState'];
    current = await round.retry({
      ...params,
      ...(inputResponses === undefined ? {} : { inputResponses }),
      ...(typeof state === 'string' ? { requestState: state } : {}),
    });
  }
  return current;
}

async function askAll(requests: unknown, round: InputRound): Promise<JsonObject | undefined> {
  if (!isObject(requests)) return undefined;
  const answers: JsonObject = {};
  for (const [key, request] of Object.entries(requests)) {
    if (!isObject(request) || typeof request['method'] !== 'string') continue;
    const params = isObject(request['params']) ? request['params'] : undefined;
    answers[key] = await round.peer.request(request['method'], params, round.signal);
  }
  return answers;
}

/** An internal error (-32603), relayed to the client like the upstream's own errors. */
function tooManyRounds(server: string): UpstreamRpcError {
  return new UpstreamRpcError(
    -32603,
    `Upstream "${server}" asked for input ${MAX_INPUT_ROUNDS} times in a row without answering`,
  );
}
