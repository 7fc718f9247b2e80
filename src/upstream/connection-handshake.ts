/**
 * The opening of an upstream connection: the transport's start (a stdio upstream's
 * spawn) and the era negotiation (src/upstream/era-negotiation.ts), bounded together by
 * the connect timeout.
 */
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { ErrorCode, McpError } from '@modelcontextprotocol/sdk/types.js';
import type { HandshakeChannel, HandshakeOptions } from './initialize-handshake.js';
import { negotiateEra, type NegotiatedEra, type NegotiationOrder } from './era-negotiation.js';

export interface OpeningOptions extends HandshakeOptions {
  readonly connectTimeoutMs: number;
  readonly negotiation: NegotiationOrder;
}

export async function openUpstream(
  transport: Transport,
  channel: HandshakeChannel,
  options: OpeningOptions,
): Promise<NegotiatedEra> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () => reject(new McpError(ErrorCode.RequestTimeout, 'Request timed out')),
      options.connectTimeoutMs,
    );
  });
  try {
    return await Promise.race([
      (async () => {
        await transport.start();
        return negotiateEra(channel, options, options.negotiation);
      })(),
      timeout,
    ]);
  } finally {
    clearTimeout(timer);
  }
}
