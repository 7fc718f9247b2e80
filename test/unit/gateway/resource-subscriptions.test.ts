import { describe, expect, it } from 'vitest';
import { ResourceSubscriptions } from '../../../src/gateway/resource-subscriptions.js';

/** An upstream that accepts every URI but `refused`, and records what it was sent. */
function upstream(refused = new Set<string>()) {
  const sent: string[] = [];
  const subscriptions = new ResourceSubscriptions((method, uri) => {
    sent.push(`${method} ${uri}`);
    return refused.has(uri) ? Promise.reject(new Error('no such resource')) : Promise.resolve({});
  });
  return { sent, subscriptions };
}

describe('ResourceSubscriptions', () => {
  it('subscribes a URI once for all its listeners and unsubscribes after the last', async () => {
    const { sent, subscriptions } = upstream();
    const a = await subscriptions.hold(['u1', 'u2']);
    const b = await subscriptions.hold(['u1']);
    expect(sent).toEqual(['resources/subscribe u1', 'resources/subscribe u2']);
    a.release();
    a.release();
    expect(sent).toEqual([
      'resources/subscribe u1',
      'resources/subscribe u2',
      'resources/unsubscribe u2',
    ]);
    b.release();
    expect(sent.at(-1)).toBe('resources/unsubscribe u1');
    expect(subscriptions.size).toBe(0);
  });

  it('honours only what the upstream accepted, and asks again for the next listener', async () => {
    const { sent, subscriptions } = upstream(new Set(['bad']));
    const held = await subscriptions.hold(['bad', 'good']);
    expect(held.uris).toEqual(['good']);
    await subscriptions.hold(['bad']);
    expect(sent.filter((line) => line === 'resources/subscribe bad')).toHaveLength(2);
    held.release();
    expect(sent).not.toContain('resources/unsubscribe bad');
  });

  it('subscribes again what an upstream lost, and only its URIs', async () => {
    const { sent, subscriptions } = upstream();
    await subscriptions.hold(['fx/1', 'gx/1']);
    subscriptions.renew((uri) => uri.startsWith('fx/'));
    await Promise.resolve();
    expect(sent).toEqual([
      'resources/subscribe fx/1',
      'resources/subscribe gx/1',
      'resources/subscribe fx/1',
    ]);
  });
});
