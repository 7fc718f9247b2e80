import { describe, expect, it } from 'vitest';
import { startSession } from './session-harness.js';

describe('initialize across the two eras', () => {
  it('never settles on 2026-07-28, which has no handshake', async () => {
    const { client, session } = await startSession({});
    const answer = await client.request(1, 'initialize', {
      protocolVersion: '2026-07-28',
      capabilities: {},
      clientInfo: { name: 'v2', version: '2' },
    });
    expect(answer['result']).toMatchObject({ protocolVersion: '2025-11-25' });
    await session.close();
  });

  it('does not offer the 2026-07-28 methods to a 2025 session', async () => {
    const { client, session, initialize } = await startSession({});
    await initialize();
    const answer = await client.request(2, 'server/discover');
    expect(answer['error']).toMatchObject({ code: -32601 });
    await session.close();
  });
});
