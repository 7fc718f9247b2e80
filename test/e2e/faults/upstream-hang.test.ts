import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ErrorCode, McpError } from '@modelcontextprotocol/sdk/types.js';
import { eventually } from '../../support/eventually.js';
import { startDaemon, type RunningDaemon } from '../../support/running-daemon.js';
import { callJson, registerFixture } from './fault-support.js';

/**
 * An upstream that never answers: with a short COFFER_REQUEST_TIMEOUT_MS the call fails
 * cleanly with UPSTREAM_TIMEOUT, the upstream is told to cancel (its own counter says so),
 * and the session and the upstream go on serving.
 *
 * A cancel sent by the client itself is proven by test/e2e/gateway/protocol-fidelity.test.ts
 * ("relays cancellation to the upstream with its own request id").
 */
describe('an upstream that hangs', () => {
  let daemon: RunningDaemon;

  beforeAll(async () => {
    daemon = await startDaemon({ COFFER_REQUEST_TIMEOUT_MS: '2500' });
    await registerFixture(daemon, 'stuck');
  });

  afterAll(async () => {
    await daemon?.stop();
  });

  it('times the call out, cancels it upstream, and the session keeps working', async () => {
    const client = await daemon.client();
    expect(await callJson(client, 'stuck__stats')).toMatchObject({ cancelledCalls: 0 });

    // The client would wait a minute: the daemon's own deadline must end the call first.
    const error = await client
      .callTool({ name: 'stuck__hang', arguments: {} }, undefined, { timeout: 60_000 })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(McpError);
    expect((error as McpError).code).toBe(ErrorCode.RequestTimeout);
    expect((error as McpError).data).toMatchObject({ coffer_code: 'UPSTREAM_TIMEOUT' });

    // The same upstream process saw the cancellation: its counters survive, so it was not
    // simply killed and respawned.
    await eventually(async () => {
      const stats = await callJson(client, 'stuck__stats');
      expect(stats.cancelledCalls).toBe(1);
    });
    expect(await callJson(client, 'stuck__echo', { after: 'timeout' })).toEqual({
      after: 'timeout',
    });
  });

  it('times out many hung calls at once without holding up a fast one', async () => {
    const client = await daemon.client();
    const before = (await callJson(client, 'stuck__stats')).cancelledCalls as number;
    const hung = Array.from({ length: 5 }, () =>
      client.callTool({ name: 'stuck__hang', arguments: {} }).catch((e: unknown) => e),
    );
    // Answered while five calls hang on the same upstream process.
    expect(await callJson(client, 'stuck__echo', { n: 1 })).toEqual({ n: 1 });
    for (const outcome of await Promise.all(hung)) {
      expect((outcome as McpError).data).toMatchObject({ coffer_code: 'UPSTREAM_TIMEOUT' });
    }
    await eventually(async () => {
      const stats = await callJson(client, 'stuck__stats');
      expect(stats.cancelledCalls).toBe(before + 5);
    });
  });
});
