import { afterEach, describe, expect, it } from 'vitest';
import type { JsonObject } from '../../../../src/domain/ports.js';
import { SecretGuard } from '../../../../src/gateway/secret-guard.js';
import { ServerInstructions } from '../../../../src/gateway/server-instructions.js';
import { StatelessService } from '../../../../src/gateway/stateless-service.js';
import type { Script } from './fake-upstream.js';
import { fakeGatewayContext, startSession, type Harness } from './session-harness.js';
import { Channel } from './stateless-channel.js';

const tools: Script = { 'tools/list': () => ({ tools: [{ name: 'work' }] }) };
const SAID = 'Call work with a path relative to ~/notes.';

let harness: Harness | undefined;
let service: StatelessService | undefined;
afterEach(async () => {
  await harness?.session.close();
  await service?.close();
  harness = undefined;
  service = undefined;
});

/**
 * What a server says about its own use (`instructions`) reaches the client as it would
 * directly: through its own endpoint verbatim, and on the aggregated one under its name,
 * from what it said when last connected (found with server-everything: Coffer dropped it).
 */
describe('the instructions of upstream servers', () => {
  it('passes the one server of a single-server session on verbatim at initialize', async () => {
    harness = await startSession({ fx: tools }, { kind: 'single', server: 'fx' });
    harness.upstreams.said['fx'] = SAID;
    expect(await harness.initialize()).toMatchObject({ instructions: SAID });
  });

  it('says nothing when the server said nothing', async () => {
    harness = await startSession({ fx: tools }, { kind: 'single', server: 'fx' });
    expect(await harness.initialize()).not.toHaveProperty('instructions');
  });

  it('gathers on the aggregated endpoint what each enabled server said when last connected', async () => {
    const instructions = new ServerInstructions();
    harness = await startSession(
      { fx: tools, quiet: tools },
      { kind: 'aggregated' },
      {
        instructions,
      },
    );
    harness.upstreams.said['fx'] = SAID;
    // Nothing connected yet, nothing heard: initialize does not wait for upstreams.
    expect(await harness.initialize()).not.toHaveProperty('instructions');
    await harness.client.request(2, 'tools/list');
    const second = await startSession(
      { fx: tools, quiet: tools },
      { kind: 'aggregated' },
      {
        instructions,
      },
    );
    try {
      const result = await second.initialize();
      expect(result['instructions']).toContain(`## fx\n\n${SAID}`);
      expect(result['instructions']).not.toContain('## quiet');
    } finally {
      await second.session.close();
    }
  });

  it('replaces a stored secret a server put in its instructions, passed on and kept alike', async () => {
    const secret = 'sk-live-instructions-1234';
    const secretGuard = new SecretGuard({
      secrets: {
        known: () => Promise.resolve([{ name: 'fx/env/KEY', value: secret, owners: ['fx'] }]),
      },
    });
    const instructions = new ServerInstructions();
    harness = await startSession({ fx: tools }, { kind: 'single', server: 'fx' }, { secretGuard });
    harness.upstreams.said['fx'] = `Your key is ${secret}.`;
    const result = await harness.initialize();
    expect(result['instructions']).toBe('Your key is [redacted: secret fx/env/KEY].');
    const aggregated = await startSession(
      { fx: tools },
      { kind: 'aggregated' },
      {
        secretGuard,
        instructions,
      },
    );
    try {
      aggregated.upstreams.said['fx'] = `Your key is ${secret}.`;
      await aggregated.initialize();
      await aggregated.client.request(2, 'tools/list');
      await expect
        .poll(() => instructions.merged(['fx']))
        .toContain('[redacted: secret fx/env/KEY]');
      expect(instructions.merged(['fx'])).not.toContain(secret);
    } finally {
      await aggregated.session.close();
    }
  });

  it('answers server/discover of a single-server endpoint with its upstream instructions', async () => {
    const { context, upstreams } = fakeGatewayContext({ fx: tools });
    upstreams.said['fx'] = SAID;
    service = new StatelessService({ context, scope: { kind: 'single', server: 'fx' } });
    const channel = new Channel(service);
    channel.request(1, 'server/discover');
    const { result } = (await channel.answer(1)) as { result: JsonObject };
    expect(result['instructions']).toBe(SAID);
  });
});
