import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { afterEach, describe, expect, it } from 'vitest';
import { StatelessService } from '../../../../src/gateway/stateless-service.js';
import { fakeGatewayContext } from './session-harness.js';

let service: StatelessService | undefined;
afterEach(async () => {
  await service?.close();
  service = undefined;
});

/** A 2026-07-28 request whose envelope names its client (or none). */
function request(id: number, method: string, params: object, client?: object): JSONRPCMessage {
  const meta = {
    'io.modelcontextprotocol/protocolVersion': '2026-07-28',
    'io.modelcontextprotocol/clientCapabilities': {},
    ...(client && { 'io.modelcontextprotocol/clientInfo': client }),
  };
  return { jsonrpc: '2.0', id, method, params: { ...params, _meta: meta } };
}

describe('activity rows of 2026-07-28 requests', () => {
  it('name the client of each request, even while another client calls at once', async () => {
    let releaseFirst!: () => void;
    const firstHeld = new Promise<void>((resolve) => (releaseFirst = resolve));
    const { context, activity } = fakeGatewayContext({
      fx: {
        'tools/list': () => ({ tools: [{ name: 'slow' }, { name: 'quick' }] }),
        'tools/call': async (params) => {
          if (params?.['name'] === 'slow') await firstHeld;
          return { content: [] };
        },
        'prompts/list': () => ({ prompts: [{ name: 'hello' }] }),
        'prompts/get': () => ({ messages: [] }),
      },
    });
    service = new StatelessService({ context, scope: { kind: 'aggregated' } });
    const answered = new Map<unknown, () => void>();
    const answer = (id: number) => new Promise<void>((resolve) => answered.set(id, resolve));
    const router = service.channel((message) => {
      if ('id' in message) answered.get(message.id)?.();
      return Promise.resolve();
    });
    const slow = answer(1);
    const quick = answer(2);
    router.receive(request(1, 'tools/call', { name: 'fx__slow' }, { name: 'alpha', version: '1' }));
    router.receive(request(2, 'tools/call', { name: 'fx__quick' }, { name: 'beta', version: '2' }));
    await quick;
    releaseFirst();
    await slow;
    const prompt = answer(3);
    router.receive(request(3, 'prompts/get', { name: 'fx__hello' }));
    await prompt;
    const rows = activity.map((row) => [row.capability_key, row.client_name, row.client_version]);
    expect(rows).toEqual([
      ['quick', 'beta', '2'],
      ['slow', 'alpha', '1'],
      ['hello', null, null],
    ]);
    expect(activity.every((row) => row.session_id === null)).toBe(true);
  });
});
