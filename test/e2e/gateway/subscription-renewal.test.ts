import { ResourceUpdatedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually } from '../../support/eventually.js';
import { addFixture, startDaemon, type RunningDaemon } from '../../support/running-daemon.js';
import { textOf } from '../../support/tool-result.js';
import { recordedPids } from '../../support/upstream-processes.js';

/**
 * A 2025 client's resource subscription outlives its upstream process: the fixture (SDK
 * v1) is killed, and the next process started for the session holds the subscription
 * again, so updates keep coming. Both for a server of its own and for one marked shared.
 */
const HELLO = 'fixture://static/hello.txt';

describe('resource subscriptions after the upstream process died', () => {
  let daemon: RunningDaemon;

  beforeAll(async () => {
    daemon = await startDaemon();
    await addFixture(daemon, 'own');
    await addFixture(daemon, 'shared', [], { shared: true });
  });

  afterAll(async () => {
    await daemon?.stop();
  });

  for (const server of ['own', 'shared']) {
    it(`are subscribed again on the new process (${server})`, async () => {
      const client = await daemon.client({ name: `renewal-${server}` });
      const uri = `coffer://${server}/${HELLO}`;
      const heard: string[] = [];
      client.setNotificationHandler(ResourceUpdatedNotificationSchema, (note) => {
        heard.push(note.params.uri);
      });
      await client.subscribeResource({ uri });
      const [pid] = recordedPids(daemon, server);
      expect(pid).toBeDefined();
      // The test's own daemon started this process; it is ended by its recorded pid.
      process.kill(pid!, 'SIGKILL');
      await eventually(() => expect(recordedPids(daemon, server)).not.toContain(pid));
      await eventually(async () => {
        const touched = await client.callTool({
          name: `${server}__touch`,
          arguments: { uri: HELLO },
        });
        expect(textOf(touched)).toContain('notified 1 subscribed session');
      });
      await eventually(() => expect(heard).toContain(uri));
    });
  }
});
