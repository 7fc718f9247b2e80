import { afterEach, describe, expect, it } from 'vitest';
import { UpstreamRpcError, type JsonObject } from '../../../../src/domain/ports.js';
import { eventually } from '../../../support/eventually.js';
import type { Script } from './fake-upstream.js';
import { startSession, type Harness } from './session-harness.js';

let harness: Harness | undefined;
afterEach(async () => {
  await harness?.session.close();
  harness = undefined;
});

const A = 'coffer://fx/file:///a';
const B = 'coffer://fx/file:///b';

/** An upstream whose resources/subscribe refuses once `gone()` says the resource is. */
function resources(gone: () => boolean = () => false): Script {
  return {
    'resources/subscribe': () => {
      if (gone()) throw new UpstreamRpcError(-32002, 'Resource not found');
      return {};
    },
  };
}

const subscribedUris = (calls: { params: JsonObject | undefined }[]) =>
  calls.map((call) => call.params?.['uri']);

describe("a 2025 session's resource subscriptions", () => {
  it('are subscribed again on the new connection after the upstream went away', async () => {
    harness = await startSession({ fx: resources() });
    await harness.initialize();
    await harness.client.request(1, 'resources/subscribe', { uri: A });
    await harness.client.request(2, 'resources/subscribe', { uri: B });
    await harness.client.request(3, 'resources/unsubscribe', { uri: B });
    const first = harness.upstreams.latest('fx');
    await first.close();
    await eventually(() => expect(harness!.upstreams.connections).toHaveLength(2));
    const second = harness.upstreams.latest('fx');
    // Only what the client still holds, under the upstream's own URI.
    await eventually(() =>
      expect(subscribedUris(second.calledWith('resources/subscribe'))).toEqual(['file:///a']),
    );
  });

  it('let go of a URI the server refuses on renewal, and log it', async () => {
    const failures: string[] = [];
    let gone = false;
    harness = await startSession(
      { fx: resources(() => gone) },
      { kind: 'aggregated' },
      { logFailure: (method) => void failures.push(method) },
    );
    await harness.initialize();
    await harness.client.request(1, 'resources/subscribe', { uri: B });
    gone = true;
    await harness.upstreams.latest('fx').close();
    await eventually(() => expect(failures).toEqual([`resources/subscribe ${B} (renewal)`]));
    // Let go: losing the new connection renews nothing, so nothing connects again.
    await harness.upstreams.latest('fx').close();
    await new Promise<void>((resolve) => setImmediate(resolve));
    await harness.session.pool.live();
    expect(harness.upstreams.connections).toHaveLength(2);
  });

  it('are not renewed when the session itself closes', async () => {
    harness = await startSession({ fx: resources() });
    await harness.initialize();
    await harness.client.request(1, 'resources/subscribe', { uri: A });
    await harness.session.close();
    await harness.session.pool.live();
    expect(harness.upstreams.connections).toHaveLength(1);
  });
});
