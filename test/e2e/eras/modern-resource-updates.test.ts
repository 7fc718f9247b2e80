import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { ResourceUpdatedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { eventually } from '../../support/eventually.js';
import { repoRoot, startDaemon, type RunningDaemon } from '../../support/running-daemon.js';
import { pinnedClient } from '../../support/v2-transport.js';
import { startModernHttp } from './modern-http-fixture.js';

/**
 * Issue 18: resource updates from a 2026-07-28 upstream. Such a server has no
 * resources/subscribe; Coffer opens a subscriptions/listen naming the resource for each
 * session that subscribes (2025 clients) or listens (2026-07-28 clients), and relays what
 * that stream says to that session only. The upstreams are the SDK v2 fixtures, over stdio
 * and over Streamable HTTP, whose `touch_readme` tool says their resource changed.
 */
const modernServer = join(repoRoot, 'test/fixtures/modern-mcp-server.mjs');

/** How each upstream is registered, and what to stop after. */
const upstreams = {
  stdio: () =>
    Promise.resolve({
      definition: { transport: 'stdio', command: process.execPath, args: [modernServer] },
      close: () => Promise.resolve(),
    }),
  http: async () => {
    const server = await startModernHttp();
    return { definition: { transport: 'http', url: server.url }, close: server.close };
  },
};

/** Counts the updates a 2025 client hears, by the URI it sees. */
function heardBy(client: Client): string[] {
  const heard: string[] = [];
  client.setNotificationHandler(ResourceUpdatedNotificationSchema, (n) => {
    heard.push(n.params.uri);
  });
  return heard;
}

describe.each(['stdio', 'http'] as const)(
  'resource updates from a 2026-07-28 upstream over %s',
  (kind) => {
    let daemon: RunningDaemon;
    let upstream: Awaited<ReturnType<(typeof upstreams)[typeof kind]>>;
    let readme: string;

    beforeAll(async () => {
      upstream = await upstreams[kind]();
      daemon = await startDaemon();
      const added = await daemon.api('POST', '/servers', {
        name: 'modern',
        ...upstream.definition,
      });
      expect(added.status).toBe(201);
      const client = await daemon.client({ name: 'lister' });
      const { resources } = await client.listResources();
      readme = resources.find((resource) => resource.name === 'readme')!.uri;
      await client.close();
    });

    afterAll(async () => {
      await daemon?.stop();
      await upstream?.close();
    });

    it('reach the 2025 sessions that subscribed, until they unsubscribe', async () => {
      const first = await daemon.client({ name: 'first' });
      const second = await daemon.client({ name: 'second' });
      const bystander = await daemon.client({ name: 'bystander' });
      const [firstHeard, secondHeard, bystanderHeard] = [first, second, bystander].map(heardBy);
      await first.subscribeResource({ uri: readme });
      await second.subscribeResource({ uri: readme });
      await bystander.callTool({ name: 'modern__touch_readme', arguments: {} });
      await eventually(() => expect(firstHeard).toEqual([readme]));
      await eventually(() => expect(secondHeard).toEqual([readme]));

      await first.unsubscribeResource({ uri: readme });
      await bystander.callTool({ name: 'modern__touch_readme', arguments: {} });
      await eventually(() => expect(secondHeard).toEqual([readme, readme]));
      expect(firstHeard).toEqual([readme]);
      expect(bystanderHeard).toEqual([]);
    });

    it('reach a 2026-07-28 client listening on /mcp for the resource', async () => {
      const client = await pinnedClient(daemon, '/mcp', 'modern listener');
      try {
        const heard: string[] = [];
        client.setNotificationHandler('notifications/resources/updated', (n) => {
          heard.push(n.params.uri);
        });
        const subscription = await client.listen({ resourceSubscriptions: [readme] });
        expect(subscription.honoredFilter).toEqual({ resourceSubscriptions: [readme] });
        await client.callTool({ name: 'modern__touch_readme', arguments: {} });
        await eventually(() => expect(heard).toEqual([readme]));
        await subscription.close();
      } finally {
        await client.close();
      }
    });
  },
);
