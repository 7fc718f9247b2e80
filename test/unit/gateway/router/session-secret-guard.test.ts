import { afterEach, describe, expect, it } from 'vitest';
import type { JsonObject } from '../../../../src/domain/ports.js';
import { SecretGuard } from '../../../../src/gateway/secret-guard.js';
import type { Script } from './fake-upstream.js';
import { startSession, type Harness } from './session-harness.js';

const SECRET = 'alpha-secret-value-0001';
const echo: Script = {
  'tools/list': () => ({ tools: [{ name: 'echo', inputSchema: { type: 'object' } }] }),
  'tools/call': (params) => ({
    content: [{ type: 'text', text: JSON.stringify(params?.['arguments']) }],
  }),
};

let harness: Harness | undefined;
afterEach(async () => {
  await harness?.session.close();
  harness = undefined;
});

const guardOf = (blockCredentials: boolean) =>
  new SecretGuard({
    secrets: {
      known: () => Promise.resolve([{ name: 'a/env/KEY', value: SECRET, owners: ['a'] }]),
    },
    blockCredentials,
  });

async function start(blockCredentials = false): Promise<Harness> {
  harness = await startSession(
    { a: echo, b: echo },
    { kind: 'aggregated' },
    { secretGuard: guardOf(blockCredentials) },
  );
  await harness.initialize();
  return harness;
}

const call = (h: Harness, id: number, name: string, args: JsonObject) =>
  h.client.request(id, 'tools/call', { name, arguments: args });

describe('a session guards the secrets Coffer stores', () => {
  it('refuses A secret sent to B before B sees it, and records secret_blocked', async () => {
    const h = await start();
    const answer = await call(h, 2, 'b__echo', { text: SECRET });
    expect(answer['error']).toMatchObject({
      data: { coffer_code: 'SECRET_BLOCKED', server: 'b', secrets: ['a/env/KEY'] },
    });
    expect(JSON.stringify(answer)).not.toContain(SECRET);
    expect(h.upstreams.latest('b').calledWith('tools/call')).toHaveLength(0);
    expect(h.activity.at(-1)).toMatchObject({
      server: 'b',
      outcome: 'error',
      error_code: 'SECRET_BLOCKED',
      guard: 'secret_blocked',
    });
  });

  it('passes A secret to A, and redacts it from what A answers', async () => {
    const h = await start();
    const answer = await call(h, 2, 'a__echo', { text: SECRET });
    expect(h.upstreams.latest('a').calledWith('tools/call')[0]?.params).toMatchObject({
      arguments: { text: SECRET },
    });
    expect(answer['result']).toEqual({
      content: [{ type: 'text', text: '{"text":"[redacted: secret a/env/KEY]"}' }],
    });
    expect(h.activity.at(-1)).toMatchObject({ outcome: 'ok', guard: 'redacted' });
  });

  it('flags a credential shape, or refuses it when blocking is on', async () => {
    const flagging = await start();
    await call(flagging, 2, 'b__echo', { key: 'AKIAABCDEFGHIJKLMNOP' });
    expect(flagging.activity.at(-1)).toMatchObject({ outcome: 'ok', guard: 'credential_flagged' });
    await flagging.session.close();
    const blocking = await start(true);
    const answer = await call(blocking, 2, 'b__echo', { key: 'AKIAABCDEFGHIJKLMNOP' });
    expect(answer['error']).toMatchObject({ data: { coffer_code: 'CREDENTIAL_BLOCKED' } });
    expect(blocking.activity.at(-1)).toMatchObject({ guard: 'credential_blocked' });
  });

  it('leaves a call with nothing to find unmarked', async () => {
    const h = await start();
    await call(h, 2, 'b__echo', { text: 'hello' });
    expect(h.activity.at(-1)).toMatchObject({ outcome: 'ok', guard: null });
  });

  it("redacts a task's outcome fetched later with tasks/result", async () => {
    const running = {
      taskId: 'up-1',
      status: 'completed',
      ttl: 60_000,
      createdAt: '',
      lastUpdatedAt: '',
    };
    const tasks: Script = {
      'tools/list': () => ({ tools: [{ name: 'job', execution: { taskSupport: 'required' } }] }),
      'tools/call': () => ({ task: running }),
      'tasks/result': () => ({ content: [{ type: 'text', text: `token ${SECRET}` }] }),
    };
    harness = await startSession(
      { a: tasks },
      { kind: 'aggregated' },
      { secretGuard: guardOf(false) },
    );
    await harness.initialize({ tasks: { requests: {} } });
    const created = await harness.client.request(2, 'tools/call', {
      name: 'a__job',
      arguments: {},
      task: { ttl: 60_000 },
    });
    const taskId = ((created['result'] as JsonObject)['task'] as JsonObject)['taskId'];
    const outcome = await harness.client.request(3, 'tasks/result', { taskId });
    expect(outcome['result']).toEqual({
      content: [{ type: 'text', text: 'token [redacted: secret a/env/KEY]' }],
    });
  });
});
