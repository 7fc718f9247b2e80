import { NEVER_CANCELLED, type CancelSignal } from '../domain/cancel-signal.js';
import { CofferError } from '../domain/errors.js';
import type { JsonObject, ToolPolicyRepository } from '../domain/ports.js';
import { effectivePolicy, type ServerPolicies } from '../domain/tool-policy.js';
import { declares } from './input-capabilities.js';
import type { DownstreamClient } from './upstream-peer.js';

/** What the gate knows of the call it checks. */
export interface GatedCall {
  readonly server: string;
  readonly key: string;
  /** The tool's definition as listed (its annotations), when the session has it. */
  readonly tool: JsonObject | undefined;
  readonly arguments: unknown;
  readonly signal?: CancelSignal | undefined;
  readonly requestId?: string | number | undefined;
}

/** Longest argument text shown in the question: enough to judge, not a wall. */
const SHOWN_ARGUMENTS = 2_000;

/**
 * Approval before a tool runs (issue 20): `allow` passes, `deny` refuses, `ask` asks the
 * person through their own client (an elicitation form, on the call's stream),
 * and "always allow" in the answer is stored as the tool's policy. A client that cannot
 * ask gets a refusal that says how to allow the tool. Policies are read once per server
 * and session, and dropped when the user changes them (capabilitiesChanged), in every
 * session when one of them stored an "always allow".
 */
export class ApprovalGate {
  private readonly cache = new Map<string, Promise<ServerPolicies>>();

  constructor(
    private readonly policies: ToolPolicyRepository,
    private readonly client: DownstreamClient,
    /** A policy the person set in an answer ("always allow"): recorded as the API's are. */
    private readonly onPolicySet: (server: string, key: string) => void = () => undefined,
  ) {}

  forget(server?: string): void {
    if (server === undefined) this.cache.clear();
    else this.cache.delete(server);
  }

  async check(call: GatedCall): Promise<void> {
    const policy = effectivePolicy(await this.policiesOf(call.server), call.key, call.tool);
    if (policy === 'allow') return;
    const allow = `coffer mcp policy ${call.server} --tool ${call.key} allow`;
    if (policy === 'deny')
      throw new CofferError('TOOL_DENIED', `Tool "${call.key}" of ${call.server} is denied`, {
        hint: `allow it with \`${allow}\``,
        data: { server: call.server },
      });
    if (!this.canAsk())
      throw new CofferError(
        'APPROVAL_REQUIRED',
        `Tool "${call.key}" of ${call.server} needs your approval, and this client cannot ask`,
        { hint: `allow it with \`${allow}\``, data: { server: call.server } },
      );
    await this.ask(call, allow);
  }

  private async ask(call: GatedCall, allow: string): Promise<void> {
    const answer = await this.client.requests.request('elicitation/create', question(call), {
      signal: call.signal ?? NEVER_CANCELLED,
      ...(call.requestId === undefined ? {} : { relatedRequestId: call.requestId }),
    });
    if (answer['action'] !== 'accept')
      throw new CofferError(
        'CALL_DECLINED',
        `You did not approve "${call.key}" of ${call.server}`,
        {
          hint: `to stop being asked: \`${allow}\``,
          data: { server: call.server },
        },
      );
    const content = answer['content'];
    if (
      content !== null &&
      typeof content === 'object' &&
      (content as JsonObject)['always'] === true
    ) {
      await this.policies.setTool(call.server, call.key, 'allow');
      this.forget(call.server);
      this.onPolicySet(call.server, `${call.key}=allow`);
    }
  }

  private canAsk(): boolean {
    return declares(this.client.capabilities(), 'elicitation.form');
  }

  private policiesOf(server: string): Promise<ServerPolicies> {
    let found = this.cache.get(server);
    if (found === undefined) {
      found = this.policies.forServer(server);
      found.catch(() => this.cache.delete(server));
      this.cache.set(server, found);
    }
    return found;
  }
}

function question(call: GatedCall): JsonObject {
  const text = JSON.stringify(call.arguments ?? {}, null, 2);
  const shown = text.length > SHOWN_ARGUMENTS ? `${text.slice(0, SHOWN_ARGUMENTS)}\n…` : text;
  // No `mode`: form is the default, and clients of 2025-06-18 know no other.
  return {
    message: `Coffer: allow the tool "${call.key}" of ${call.server} to run with these arguments?\n${shown}`,
    requestedSchema: {
      type: 'object',
      properties: {
        always: {
          type: 'boolean',
          title: 'Always allow this tool',
          description: `Do not ask again for "${call.key}" of ${call.server}`,
          default: false,
        },
      },
    },
  };
}
