import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { FakeTransport } from './fake-transport.js';

type Message = Record<string, unknown>;

const UNSUPPORTED = {
  code: -32022,
  message: 'Unsupported protocol version',
  data: { supported: ['2026-07-28'], requested: '2026-07-28' },
};

/**
 * A FakeTransport playing a 2026-07-28-only server: `server/discover` is answered with
 * its supported versions and capabilities, `initialize` with the -32022 error naming
 * 2026-07-28; other requests wait for the test to answer them.
 */
export class ModernFakeTransport extends FakeTransport {
  discoverResult: Message = {
    supportedVersions: ['2026-07-28'],
    capabilities: { tools: { listChanged: true }, prompts: {} },
    resultType: 'complete',
  };
  /** How many `server/discover` requests to refuse with -32022 before answering. */
  discoverRefusals = 0;

  constructor() {
    super();
    this.initializeResult = undefined;
  }

  override send(message: JSONRPCMessage): Promise<void> {
    const sent = message as Message;
    const id = sent['id'];
    if (sent['method'] === 'server/discover' && this.discoverRefusals > 0) {
      this.discoverRefusals -= 1;
      this.later({ jsonrpc: '2.0', id, error: UNSUPPORTED });
    } else if (sent['method'] === 'server/discover')
      this.later({ jsonrpc: '2.0', id, result: this.discoverResult });
    if (sent['method'] === 'initialize')
      this.later({
        jsonrpc: '2.0',
        id,
        error: {
          code: -32022,
          message: 'Unsupported protocol version: 2025-11-25',
          data: { supported: ['2026-07-28'], requested: '2025-11-25' },
        },
      });
    return super.send(message);
  }

  private later(message: Message): void {
    void Promise.resolve().then(() => this.deliver(message));
  }
}
