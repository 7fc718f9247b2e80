import { describe, expect, it } from 'vitest';
import { NEVER_CANCELLED } from '../../../src/domain/cancel-signal.js';
import { UpstreamRpcError, type Schedule } from '../../../src/domain/ports.js';
import { AdminPeers, QUIET_MS } from '../../../src/gateway/admin-peers.js';

const settled = () => new Promise<void>((resolve) => setImmediate(resolve));

describe("the admin catalog's peers", () => {
  it('announces the list changes one server says in one tick once, per server', async () => {
    const heard: string[] = [];
    const peers = new AdminPeers({ onListsChanged: (server) => heard.push(server) });
    const docs = peers.for('docs');
    docs.notify('notifications/tools/list_changed', undefined);
    docs.notify('notifications/prompts/list_changed', undefined);
    docs.notify('notifications/resources/list_changed', undefined);
    peers.for('web').notify('notifications/tools/list_changed', undefined);
    expect(heard).toEqual([]);
    await settled();
    expect(heard).toEqual(['docs', 'web']);
    // A later change is news again.
    docs.notify('notifications/tools/list_changed', undefined);
    await settled();
    expect(heard).toEqual(['docs', 'web', 'docs']);
  });

  it('ignores other notifications, and refuses what an upstream asks', async () => {
    const heard: string[] = [];
    const peer = new AdminPeers({ onListsChanged: (server) => heard.push(server) }).for('docs');
    peer.notify('notifications/message', { level: 'info', data: 'hello' });
    peer.notify('notifications/resources/updated', { uri: 'file:///a' });
    await settled();
    expect(heard).toEqual([]);
    const asked = peer.request('sampling/createMessage', {}, NEVER_CANCELLED);
    await expect(asked).rejects.toBeInstanceOf(UpstreamRpcError);
    await expect(asked).rejects.toMatchObject({
      code: -32601,
      message: expect.stringContaining('sampling/createMessage') as unknown,
    });
    await expect(asked).rejects.toThrow(/call the tool from an agent/);
  });

  describe('a server that announces a change at every listing', () => {
    /** The UI's part: it lists again at each announcement, as the server page does. */
    function setUp() {
      const holds: { work: () => void; ms: number; cancelled: boolean }[] = [];
      const schedule: Schedule = (work, ms) => {
        const hold = { work, ms, cancelled: false };
        holds.push(hold);
        return () => (hold.cancelled = true);
      };
      const announced: string[] = [];
      const peers = new AdminPeers({
        onListsChanged: (server) => announced.push(server),
        schedule,
      });
      const peer = peers.for('chatty');
      /** One listing by the UI, whose answer the server follows with a change (its echo). */
      const list = (fingerprint = 'same') => {
        const listed = peers.listing('chatty');
        peer.notify('notifications/tools/list_changed', undefined);
        listed(fingerprint);
      };
      const endHold = () => {
        const hold = holds.find((entry) => !entry.cancelled);
        hold!.cancelled = true;
        hold!.work();
      };
      return { peers, peer, list, announced, holds, endHold };
    }

    it('is listed once per hold, each longer, instead of at once again and again', async () => {
      const { list, announced, holds, endHold } = setUp();
      list(); // the page opens: a first fingerprint, and its echo is news
      await settled();
      expect(announced).toEqual(['chatty']);
      list(); // the relist finds the lists as they were: its echo is held
      await settled();
      expect(announced).toEqual(['chatty']);
      expect(holds.map((hold) => hold.ms)).toEqual([QUIET_MS[0]]);
      endHold(); // what was heard meanwhile is said once
      await settled();
      expect(announced).toEqual(['chatty', 'chatty']);
      list();
      await settled();
      expect(holds.map((hold) => hold.ms)).toEqual([QUIET_MS[0], QUIET_MS[1]]);
      for (let round = 2; round < QUIET_MS.length + 2; round += 1) {
        endHold();
        await settled();
        list();
        await settled();
      }
      expect(holds.at(-1)?.ms).toBe(QUIET_MS.at(-1));
      expect(announced).toHaveLength(2 + QUIET_MS.length);
    });

    it('announces at once again after a relist that found a change', async () => {
      const { list, announced, holds, endHold, peer } = setUp();
      list('v1');
      await settled();
      list('v1');
      await settled();
      expect(holds).toHaveLength(1);
      endHold();
      await settled();
      list('v2'); // the tools did change: its notification is said, nothing held
      await settled();
      expect(holds).toHaveLength(1);
      expect(announced).toEqual(['chatty', 'chatty', 'chatty']);
      peer.notify('notifications/tools/list_changed', undefined);
      await settled();
      expect(announced).toHaveLength(4);
    });

    it('holds from the relist that found nothing new, echo or not, and says nothing unheard', async () => {
      const { peers, peer, list, announced, holds, endHold } = setUp();
      list();
      await settled();
      peers.listing('chatty')('same'); // the relist finds the same lists; its echo comes later
      expect(holds).toHaveLength(1);
      peer.notify('notifications/tools/list_changed', undefined);
      await settled();
      expect(announced).toEqual(['chatty']);
      endHold();
      await settled();
      expect(announced).toEqual(['chatty', 'chatty']);
      peers.listing('chatty')('same'); // held again, and this time nothing is heard
      endHold();
      await settled();
      expect(announced).toEqual(['chatty', 'chatty']);
    });

    it('a refresh or close ends a hold', async () => {
      const { peers, peer, list, announced, holds } = setUp();
      list();
      await settled();
      list();
      await settled();
      expect(holds).toHaveLength(1);
      peers.forget('chatty'); // a refresh: the hold ends, and news is said at once
      expect(holds[0]?.cancelled).toBe(true);
      peer.notify('notifications/tools/list_changed', undefined);
      await settled();
      expect(announced).toEqual(['chatty', 'chatty']);
      list();
      await settled();
      list();
      await settled();
      expect(holds.filter((hold) => !hold.cancelled)).toHaveLength(1);
      peers.close();
      expect(holds.every((hold) => hold.cancelled)).toBe(true);
    });
  });
});
