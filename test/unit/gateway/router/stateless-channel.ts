import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import type { MessageRouter } from '../../../../src/gateway/router/message-router.js';
import type { JsonObject } from '../../../../src/domain/ports.js';
import { afterEach } from 'vitest';
import { StatelessService } from '../../../../src/gateway/stateless-service.js';
import type { FakeConnector, Script } from './fake-upstream.js';
import { fakeGatewayContext } from './session-harness.js';

/** The envelope of a 2026-07-28 client that declares nothing. */
export const envelope = {
  'io.modelcontextprotocol/protocolVersion': '2026-07-28',
  'io.modelcontextprotocol/clientCapabilities': {},
};

export type Message = JSONRPCMessage & Record<string, unknown>;

/** One client of the stateless service: what it is sent, waited for by event. */
export class Channel {
  readonly sent: Message[] = [];
  readonly router: MessageRouter;
  private waiters: (() => void)[] = [];

  constructor(service: StatelessService) {
    this.router = service.channel((message) => {
      this.sent.push(message);
      for (const wake of this.waiters.splice(0)) wake();
      return Promise.resolve();
    });
  }

  request(id: number, method: string, params: Record<string, unknown> = {}): void {
    this.router.receive({
      jsonrpc: '2.0',
      id,
      method,
      params: { ...params, _meta: { ...envelope, ...(params['_meta'] as object) } },
    });
  }

  async next(match: (message: Message) => boolean): Promise<Message> {
    for (;;) {
      const found = this.sent.find(match);
      if (found !== undefined) return found;
      await new Promise<void>((resolve) => this.waiters.push(resolve));
    }
  }

  answer(id: number): Promise<Message> {
    return this.next((m) => m['id'] === id && !('method' in m));
  }
}

/**
 * A starter of aggregated stateless services over fake upstreams, each closed after its
 * test (call it at the top of a test file: it registers the afterEach).
 */
export function statelessServices(): (
  scripts: Record<string, Script>,
  capabilities?: Record<string, JsonObject>,
) => {
  service: StatelessService;
  upstreams: FakeConnector;
} {
  const started: StatelessService[] = [];
  afterEach(async () => {
    await Promise.all(started.splice(0).map((service) => service.close()));
  });
  return (scripts, capabilities = {}) => {
    const { context, upstreams } = fakeGatewayContext(scripts, {}, capabilities);
    const service = new StatelessService({ context, scope: { kind: 'aggregated' } });
    started.push(service);
    return { service, upstreams };
  };
}
