import { describe, expect, it } from 'vitest';
import { NEVER_CANCELLED } from '../../../src/domain/cancel-signal.js';
import { UpstreamRpcError } from '../../../src/domain/ports.js';
import { AdminPeers } from '../../../src/gateway/admin-peers.js';

const settled = () => new Promise<void>((resolve) => setImmediate(resolve));

describe("the admin catalog's peers", () => {
  it('announces the list changes one server says in one tick once, per server', async () => {
    const heard: string[] = [];
    const peers = new AdminPeers((server) => heard.push(server));
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
    const peer = new AdminPeers((server) => heard.push(server)).for('docs');
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
});
