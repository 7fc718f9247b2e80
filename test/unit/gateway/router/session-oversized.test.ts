import { afterEach, describe, expect, it } from 'vitest';
import type { JsonObject } from '../../../../src/domain/ports.js';
import { startSession, type Harness } from './session-harness.js';
import type { Script } from './fake-upstream.js';

let harness: Harness | undefined;
afterEach(async () => {
  await harness?.session.close();
  harness = undefined;
});

const big = Array.from({ length: 1_000 }, (_, i) => `row ${i}`).join('\n');
/** An upstream with tools only (no resources capability), whose one tool answers `big`. */
const toolsOnly: Script = {
  'tools/list': () => ({ tools: [{ name: 'dump' }] }),
  'tools/call': () => ({ content: [{ type: 'text', text: big }] }),
};
const limit = { resultLimit: { budgetTokens: 1_000, ttlMs: 60_000 } };

function result(message: JsonObject): JsonObject {
  return message['result'] as JsonObject;
}

function noteOf(answer: JsonObject): string {
  return (result(answer)['content'] as { text: string }[]).at(-1)!.text;
}

describe('a session with a result limit', () => {
  it('declares resources on a single-server endpoint and serves its kept results there', async () => {
    harness = await startSession({ fx: toolsOnly }, { kind: 'single', server: 'fx' }, limit);
    expect(await harness.initialize()).toMatchObject({ capabilities: { resources: {} } });
    const listed = await harness.client.request(0, 'resources/list');
    expect(result(listed)).toEqual({ resources: [] });
    const answer = await harness.client.request(1, 'tools/call', { name: 'dump' });
    const uri = /(coffer:\/\/coffer\/results\/[A-Za-z0-9_-]+):/.exec(noteOf(answer))![1]!;
    const pages = Number(/ of (\d+)\./.exec(noteOf(answer))![1]);
    let text = '';
    for (let page = 1; page <= pages; page += 1) {
      const read = await harness.client.request(`r${page}`, 'resources/read', {
        uri: `${uri}/${page}`,
      });
      text += (result(read)['contents'] as { text: string }[])[0]!.text;
    }
    expect(text).toBe(big);
    expect(harness.upstreams.latest('fx').calledWith('resources/read')).toHaveLength(0);

    harness.clock.advance(60_000);
    const expired = await harness.client.request('late', 'resources/read', { uri: `${uri}/1` });
    expect(expired['error']).toMatchObject({
      code: -32602,
      data: { coffer_code: 'CAPABILITY_NOT_FOUND', uri: `${uri}/1` },
    });
  });

  it('relays other reads to their upstream', async () => {
    const withResources: Script = {
      ...toolsOnly,
      'resources/list': () => ({ resources: [{ uri: 'file:///a', name: 'a' }] }),
      'resources/read': () => ({ contents: [{ uri: 'file:///a', text: 'A' }] }),
    };
    harness = await startSession({ fx: withResources }, { kind: 'aggregated' }, limit);
    await harness.initialize();
    const read = await harness.client.request(1, 'resources/read', {
      uri: 'coffer://fx/file:///a',
    });
    expect(result(read)['contents']).toEqual([{ uri: 'coffer://fx/file:///a', text: 'A' }]);
  });
});

describe('a session without a result limit', () => {
  it('relays a big result whole and declares only what its upstream offers', async () => {
    harness = await startSession({ fx: toolsOnly }, { kind: 'single', server: 'fx' });
    const capabilities = (await harness.initialize())['capabilities'] as JsonObject;
    expect(capabilities['resources']).toBeUndefined();
    const answer = await harness.client.request(1, 'tools/call', { name: 'dump' });
    expect(result(answer)['content']).toEqual([{ type: 'text', text: big }]);
  });
});
