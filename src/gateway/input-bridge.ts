import { randomBytes } from 'node:crypto';
import { CofferError } from '../domain/errors.js';
import { missingClientCapability } from '../domain/mcp-envelope.js';
import { UpstreamRpcError, type JsonObject } from '../domain/ports.js';
import { isObject, readEnvelope } from './protocol-eras.js';
import { capabilityObject } from './input-capabilities.js';
import { DownstreamRequests, type OutboundOptions } from './router/downstream-requests.js';
import type { RequestId } from './router/method-table.js';

/** How long an input-required result waits for the client's retry before the upstream hears "no". */
const DEFAULT_PARK_MS = 10 * 60_000;

/**
 * The questions bridged, the input request kinds of 2026-07-28 (the peer has checked the
 * client declared what each needs).
 */
const BRIDGED = new Set(['sampling/createMessage', 'elicitation/create', 'roots/list']);

/** How long after an upstream's first question its others still join the same result. */
const GATHER_MS = 10;

/** The questions a call cannot do without: a client that cannot answer gets -32021. */
const NEEDED_BY_THE_CALL = new Set(['sampling/createMessage', 'elicitation/create']);

interface Question {
  readonly method: string;
  readonly params: JsonObject | undefined;
  readonly answer: (result: JsonObject) => void;
  readonly fail: (error: unknown) => void;
}

type Step = { readonly result: JsonObject } | { readonly questions: Question[] };

/** One 2026-07-28 request that may need the client's input: its upstream outcome and questions. */
class BridgedCall {
  private readonly questions: Question[] = [];
  private wake: (() => void) | undefined;
  private refusal: Error | undefined;

  constructor(
    readonly outcome: Promise<JsonObject>,
    readonly capabilities: JsonObject,
    /** The request's own key (request-logs.ts), under which it waits on its upstream. */
    readonly key: RequestId,
  ) {}

  ask(question: Question): void {
    this.questions.push(question);
    this.wake?.();
  }

  /** The call cannot go on without what the client did not declare: it fails with `error`. */
  refuse(error: Error): void {
    this.refusal ??= error;
    this.wake?.();
  }

  /** The upstream's result, or the questions it asked meanwhile, whichever comes first. */
  next(): Promise<Step> {
    if (this.refusal !== undefined) return Promise.reject(this.refusal);
    if (this.questions.length > 0) return Promise.resolve({ questions: this.questions.splice(0) });
    return new Promise((resolve, reject) => {
      // Questions an upstream sends together go out as one input_required result: they
      // may come in more than one read of its stream, so the first waits a moment.
      let woken = false;
      this.wake = () => {
        // A refusal ends the call at once, before the upstream's own error can.
        if (this.refusal !== undefined) return reject(this.refusal);
        if (woken) return;
        woken = true;
        setTimeout(
          () =>
            this.refusal === undefined
              ? resolve({ questions: this.questions.splice(0) })
              : reject(this.refusal),
          GATHER_MS,
        );
      };
      this.outcome.then((result) => resolve({ result }), reject);
    }).finally(() => (this.wake = undefined)) as Promise<Step>;
  }
}

interface Parked {
  readonly call: BridgedCall;
  readonly asked: ReadonlyMap<string, Question>;
  readonly timer: NodeJS.Timeout;
}

/**
 * The era bridge for 2026-07-28 clients (issue 18 item 3, first half): a 2025 upstream's
 * sampling, elicitation or roots request during a client's tools/call, prompts/get or
 * resources/read becomes an `input_required` result; the client's retry (its
 * `inputResponses` and the `requestState` it was given, an unguessable token) answers
 * the upstream and waits on for the outcome. Upstream connections are shared by all
 * 2026-07-28 requests and a question names no request, so the question goes to the
 * request the upstream side names (`relatedRequestId`: the only one in flight to that
 * upstream that is not parked waiting for its answers); with none, or several, the
 * upstream gets an error rather than a chance of asking the wrong client.
 */
export class InputBridge extends DownstreamRequests {
  private readonly running = new Set<BridgedCall>();
  private readonly parked = new Map<string, Parked>();

  constructor(private readonly parkMs = DEFAULT_PARK_MS) {
    super(() => Promise.reject(new Error('a 2026-07-28 client has no session to ask on')));
  }

  override request(
    method: string,
    params: JsonObject | undefined,
    options: OutboundOptions,
  ): Promise<JsonObject> {
    const call = this.callOf(options.relatedRequestId);
    if (call === undefined) return Promise.reject(this.untold(method));
    if (!BRIDGED.has(method))
      return Promise.reject(new UpstreamRpcError(-32601, `Method not found: ${method}`));
    return new Promise((answer, fail) => {
      if (options.signal.aborted) return fail(new Error('cancelled by the upstream'));
      options.signal.onAbort(() => fail(new Error('cancelled by the upstream')));
      call.ask({ method, params, answer, fail });
    });
  }

  /**
   * What the client of request `related` declared; without one, what the one running
   * request's client declared. Nothing when there is no such request.
   */
  capabilities(related?: RequestId): JsonObject {
    const [only, another] = [...this.running];
    const call =
      related === undefined ? (another === undefined ? only : undefined) : this.callOf(related);
    return call?.capabilities ?? {};
  }

  /**
   * An upstream asked `method` of a client that did not declare `capability` (the peer
   * tells it "method not found"). For a sampling or elicitation the request it belongs to
   * then fails with the spec's -32021 naming the capability, so its client can declare it
   * and retry. Not for roots: 2025 servers ask for them on their own (after connecting,
   * after a change), must cope with a client that has none, and the call in flight at that
   * moment may well be another tool's.
   *
   * A sampling or elicitation that names no request while requests run (several wait on
   * that upstream) is refused as such: its own client may well have declared it, and
   * "method not found" would say otherwise.
   */
  undeclared(
    method: string,
    capability: string,
    related?: RequestId,
  ): UpstreamRpcError | undefined {
    if (!NEEDED_BY_THE_CALL.has(method)) return undefined;
    const call = this.callOf(related);
    if (call === undefined) return this.running.size > 0 ? this.untold(method) : undefined;
    call.refuse(
      missingClientCapability(
        capabilityObject(capability),
        `The server needs the client's ${capability} capability (it sent ${method}): declare ${capability} in the request's clientCapabilities and try again`,
      ),
    );
    return undefined;
  }

  /**
   * One request that may need input, keyed `key` while it waits on its upstream: started,
   * or resumed by its `requestState` (it keeps the key it started with).
   */
  async run(
    params: JsonObject | undefined,
    key: RequestId,
    start: () => Promise<JsonObject>,
  ): Promise<JsonObject> {
    const token = params?.['requestState'];
    const call =
      typeof token === 'string'
        ? this.resume(token, params?.['inputResponses'])
        : this.begin(params, key, start);
    return this.step(call);
  }

  /**
   * The request keyed `key` is parked: its questions went out in an input_required result
   * and its upstream handler waits for the answers, so it is not the one asking anything
   * new. (One whose client never comes back stays parked until it expires, and would
   * otherwise make every later question on that upstream one Coffer cannot attribute.)
   */
  waiting(key: RequestId): boolean {
    for (const parked of this.parked.values()) if (parked.call.key === key) return true;
    return false;
  }

  override closeAll(): void {
    super.closeAll();
    for (const token of [...this.parked.keys()]) this.expire(token, 'Connection closed');
  }

  /** The refusal of a question Coffer cannot attribute to one waiting request. */
  private untold(method: string): UpstreamRpcError {
    return new UpstreamRpcError(
      -32603,
      `Coffer cannot tell which 2026-07-28 request ${method} belongs to (${this.running.size} in flight)`,
    );
  }

  /** The running request keyed `key`. */
  private callOf(key: RequestId | undefined): BridgedCall | undefined {
    if (key === undefined) return undefined;
    for (const call of this.running) if (call.key === key) return call;
    return undefined;
  }

  private begin(
    params: JsonObject | undefined,
    key: RequestId,
    start: () => Promise<JsonObject>,
  ): BridgedCall {
    const envelope = readEnvelope(params);
    const capabilities = typeof envelope === 'string' ? {} : envelope.clientCapabilities;
    const call = new BridgedCall(start(), capabilities, key);
    this.running.add(call);
    call.outcome.then(
      () => this.running.delete(call),
      () => this.running.delete(call),
    );
    return call;
  }

  private resume(token: string, responses: unknown): BridgedCall {
    const parked = this.parked.get(token);
    if (parked === undefined)
      throw new CofferError('INVALID_INPUT', 'Unknown or expired requestState', {
        hint: 'send the request again without requestState and inputResponses',
      });
    this.parked.delete(token);
    clearTimeout(parked.timer);
    for (const [key, question] of parked.asked) {
      const response = isObject(responses) ? responses[key] : undefined;
      if (isObject(response)) question.answer(response);
      else
        question.fail(
          new UpstreamRpcError(-32603, `The client gave no answer to ${question.method}`),
        );
    }
    return parked.call;
  }

  private async step(call: BridgedCall): Promise<JsonObject> {
    const step = await call.next();
    if ('result' in step) return step.result;
    const token = randomBytes(24).toString('base64url');
    const asked = new Map(step.questions.map((question, i) => [`coffer-${i + 1}`, question]));
    const timer = setTimeout(
      () => this.expire(token, 'The client did not answer in time'),
      this.parkMs,
    );
    timer.unref();
    this.parked.set(token, { call, asked, timer });
    const inputRequests = Object.fromEntries(
      [...asked].map(([key, q]) => [
        key,
        q.params === undefined ? { method: q.method } : { method: q.method, params: q.params },
      ]),
    );
    return { resultType: 'input_required', inputRequests, requestState: token };
  }

  private expire(token: string, reason: string): void {
    const parked = this.parked.get(token);
    if (parked === undefined) return;
    this.parked.delete(token);
    clearTimeout(parked.timer);
    for (const question of parked.asked.values())
      question.fail(new UpstreamRpcError(-32603, reason));
  }
}
