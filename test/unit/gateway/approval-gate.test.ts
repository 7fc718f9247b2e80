import { describe, expect, it } from 'vitest';
import type { JsonObject, ToolPolicyRepository } from '../../../src/domain/ports.js';
import type { ToolPolicy } from '../../../src/domain/tool-policy.js';
import { ApprovalGate } from '../../../src/gateway/approval-gate.js';
import type { DownstreamClient } from '../../../src/gateway/upstream-peer.js';

/** Policies in memory, counting reads so the cache can be seen. */
function memoryPolicies(tools: Record<string, ToolPolicy> = {}) {
  const own = new Map(Object.entries(tools));
  let reads = 0;
  const repository: ToolPolicyRepository = {
    forServer: () => ((reads += 1), Promise.resolve({ destructive: 'ask', tools: new Map(own) })),
    setTool: (_server, key, policy) => {
      if (policy === null) own.delete(key);
      else own.set(key, policy);
      return Promise.resolve();
    },
    setDestructive: () => Promise.resolve(),
  };
  return { repository, reads: () => reads, own };
}

/** A client with `capabilities` that answers each question with `answer`. */
function client(capabilities: JsonObject | undefined, answer: JsonObject = { action: 'accept' }) {
  const asked: { params: JsonObject | undefined; related: unknown }[] = [];
  const downstream = {
    capabilities: () => capabilities,
    requests: {
      request: (
        _method: string,
        params: JsonObject | undefined,
        options: { relatedRequestId?: unknown },
      ) => {
        asked.push({ params, related: options.relatedRequestId });
        return Promise.resolve(answer);
      },
    },
    notifier: {},
  } as unknown as DownstreamClient;
  return { downstream, asked };
}

const destructive = { name: 'rm', annotations: { destructiveHint: true } };
const call = {
  server: 'files',
  key: 'rm',
  tool: destructive,
  arguments: { path: '/tmp/x' },
  requestId: 7,
};

describe('ApprovalGate', () => {
  it('lets a tool through without a question when nothing says to ask', async () => {
    const { downstream, asked } = client({ elicitation: {} });
    await new ApprovalGate(memoryPolicies().repository, downstream).check({
      ...call,
      tool: { name: 'ls' },
    });
    expect(asked).toEqual([]);
  });

  it("asks on the call's stream, with a form holding only the 'always' switch", async () => {
    const { downstream, asked } = client({ elicitation: { form: {} } });
    await new ApprovalGate(memoryPolicies().repository, downstream).check(call);
    expect(asked).toHaveLength(1);
    expect(asked[0]?.related).toBe(7);
    expect(asked[0]?.params?.['message']).toContain('"rm" of files');
    expect(asked[0]?.params?.['requestedSchema']).toMatchObject({
      type: 'object',
      properties: { always: { type: 'boolean' } },
    });
  });

  it('refuses with APPROVAL_REQUIRED when the client has no form elicitation', async () => {
    for (const capabilities of [undefined, {}, { elicitation: { url: {} } }]) {
      const { downstream } = client(capabilities);
      await expect(
        new ApprovalGate(memoryPolicies().repository, downstream).check(call),
      ).rejects.toMatchObject({ code: 'APPROVAL_REQUIRED', data: { server: 'files' } });
    }
  });

  it('refuses a declined or cancelled question with CALL_DECLINED', async () => {
    for (const action of ['decline', 'cancel']) {
      const { downstream } = client({ elicitation: {} }, { action });
      await expect(
        new ApprovalGate(memoryPolicies().repository, downstream).check(call),
      ).rejects.toMatchObject({ code: 'CALL_DECLINED' });
    }
  });

  it('stores "always allow", reads policies once per server until told to forget', async () => {
    const policies = memoryPolicies();
    const { downstream, asked } = client(
      { elicitation: {} },
      { action: 'accept', content: { always: true } },
    );
    const set: string[] = [];
    const gate = new ApprovalGate(policies.repository, downstream, (server, key) =>
      set.push(`${server} ${key}`),
    );
    await gate.check(call);
    expect(policies.own.get('rm')).toBe('allow');
    // Said once, as an admin action: the activity log and the config snapshot follow it.
    expect(set).toEqual(['files rm=allow']);
    await gate.check(call);
    await gate.check(call);
    expect(asked).toHaveLength(1);
    expect(policies.reads()).toBe(2);
    policies.own.set('rm', 'deny');
    await gate.check(call);
    gate.forget('files');
    await expect(gate.check(call)).rejects.toMatchObject({ code: 'TOOL_DENIED' });
  });
});
