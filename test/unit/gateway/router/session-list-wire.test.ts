import { afterEach, describe, expect, it, vi } from 'vitest';
import type { JsonObject } from '../../../../src/domain/ports.js';
import { LineTransport } from '../../../../src/gateway/line-transport.js';
import { wireString, type WireText } from '../../../../src/gateway/serialized-results.js';
import { Session } from '../../../../src/gateway/session.js';
import { fakeGatewayContext, type ManualClock, type MemoryPreferences } from './session-harness.js';
import type { FakeConnector, Script } from './fake-upstream.js';

/**
 * A session on the socket channel's transport, read as the bytes it writes: a warm list
 * is the kept bytes of its result (not serialised again), and never those of a list that
 * changed since (list_changed, a preference, the TTL).
 */
interface WireSession {
  readonly session: Session;
  readonly upstreams: FakeConnector;
  readonly preferences: MemoryPreferences;
  readonly clock: ManualClock;
  readonly written: WireText[];
  /** Sends a request; resolves with what the session wrote for its answer. */
  request(id: number, method: string, params?: JsonObject): Promise<WireText>;
  /** The first line written (already, or from now on) whose text matches. */
  next(match: (text: string) => boolean): Promise<string>;
}

async function wireSession(scripts: Record<string, Script>): Promise<WireSession> {
  const { context, upstreams, preferences, clock } = fakeGatewayContext(scripts);
  const written: WireText[] = [];
  const waiters: { match: (text: string) => boolean; resolve: (text: string) => void }[] = [];
  let transport!: LineTransport;
  const session = new Session({
    scope: { kind: 'aggregated' },
    context,
    clientCapabilities: {},
    transport: (parts) =>
      (transport = new LineTransport({
        ...parts,
        sessionId: 'wire-session',
        write: (wire) => {
          written.push(wire);
          const text = wireString(wire);
          for (const waiter of waiters.splice(0)) {
            if (waiter.match(text)) waiter.resolve(text);
            else waiters.push(waiter);
          }
        },
        end: () => undefined,
      })),
    onInitialized: () => undefined,
    onClosed: () => undefined,
  });
  await session.start();
  const next = (match: (text: string) => boolean): Promise<string> => {
    const already = written.map(wireString).find(match);
    if (already !== undefined) return Promise.resolve(already);
    return new Promise((resolve) => waiters.push({ match, resolve }));
  };
  const request = async (id: number, method: string, params?: JsonObject) => {
    transport.receive({ jsonrpc: '2.0', id, method, ...(params ? { params } : {}) });
    const prefix = `{"jsonrpc":"2.0","id":${id},`;
    await next((text) => text.startsWith(prefix));
    return written.find((wire) => wireString(wire).startsWith(prefix))!;
  };
  await request(0, 'initialize', {
    protocolVersion: '2025-06-18',
    capabilities: {},
    clientInfo: { name: 'wire-client', version: '1.0.0' },
  });
  transport.receive({ jsonrpc: '2.0', method: 'notifications/initialized' });
  return { session, upstreams, preferences, clock, written, request, next };
}

const toolNames = (wire: WireText): string[] => {
  const answer = JSON.parse(wireString(wire)) as { result: { tools: { name: string }[] } };
  return answer.result.tools.map((tool) => tool.name);
};

/** The kept bytes of a result the session wrote as chunks (undefined: written as text). */
const keptChunk = (wire: WireText): Buffer | undefined =>
  typeof wire === 'string' ? undefined : wire[1];

let wire: WireSession | undefined;
afterEach(async () => {
  await wire?.session.close();
  wire = undefined;
});

/** An upstream whose tool list grows by one tool at each list request. */
function growingUpstream(): Script {
  let lists = 0;
  return {
    'tools/list': () => {
      lists += 1;
      return {
        tools: Array.from({ length: lists + 1 }, (_, i) => ({
          name: `t${i}`,
          description: `tool ${i}: “quoted” \u2028 ✓`,
        })),
      };
    },
  };
}

describe('a warm list on the wire', () => {
  it('writes the kept bytes again under each id: the same message as a fresh serialisation', async () => {
    wire = await wireSession({ fx: growingUpstream() });
    const first = await wire.request(1, 'tools/list');
    const second = await wire.request(2, 'tools/list');
    expect(keptChunk(second)).toBeDefined();
    expect(keptChunk(second)).toBe(keptChunk(first));
    const parsed = JSON.parse(wireString(second)) as JsonObject;
    expect(wireString(second)).toBe(`${JSON.stringify(parsed)}\n`);
    expect(wireString(second)).toBe(wireString(first).replace('"id":1,', '"id":2,'));
    expect(toolNames(second)).toEqual(['coffer__search_tools', 'fx__t0', 'fx__t1']);
  });

  it('is not served stale after the upstream says list_changed', async () => {
    wire = await wireSession({ fx: growingUpstream() });
    const before = await wire.request(1, 'tools/list');
    wire.upstreams.latest('fx').context.peer.notify('notifications/tools/list_changed', undefined);
    await wire.next((text) => text.includes('"notifications/tools/list_changed"'));
    const after = await wire.request(2, 'tools/list');
    expect(keptChunk(after)).not.toBe(keptChunk(before));
    expect(toolNames(after)).toEqual(['coffer__search_tools', 'fx__t0', 'fx__t1', 'fx__t2']);
  });

  it('is not served stale after a preference change, nor after the TTL', async () => {
    wire = await wireSession({ fx: growingUpstream(), other: growingUpstream() });
    expect(toolNames(await wire.request(1, 'tools/list'))).toContain('fx__t1');
    wire.preferences.disable('fx', 'tool', 't1');
    wire.session.capabilitiesChanged('fx');
    const disabled = toolNames(await wire.request(2, 'tools/list'));
    expect(disabled).not.toContain('fx__t1');
    expect(disabled).toContain('other__t1');
    wire.clock.advance(60_001);
    expect(toolNames(await wire.request(3, 'tools/list'))).toContain('other__t2');
  });

  it('races no list deadline once every list has arrived: no timer per server per listing', async () => {
    wire = await wireSession({ fx: growingUpstream(), other: growingUpstream() });
    await wire.request(1, 'tools/list');
    const timers = vi.spyOn(globalThis, 'setTimeout');
    try {
      await wire.request(2, 'tools/list');
      expect(timers).not.toHaveBeenCalled();
    } finally {
      timers.mockRestore();
    }
  });

  it('pages a list asked for with a cursor as text, from the current list', async () => {
    wire = await wireSession({ fx: growingUpstream() });
    await wire.request(1, 'tools/list');
    const cursor = Buffer.from('offset:1').toString('base64url');
    const page = await wire.request(2, 'tools/list', { cursor });
    expect(typeof page).toBe('string');
    expect(toolNames(page)).toEqual(['fx__t0', 'fx__t1']);
  });
});
