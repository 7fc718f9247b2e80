import type { JsonObject, UpstreamPeer } from '../../../src/domain/ports.js';
import type { CancelSignal } from '../../../src/domain/cancel-signal.js';
import { JsonRpcUpstreamConnection } from '../../../src/upstream/jsonrpc-upstream-connection.js';
import { FakeTransport } from './fake-transport.js';

export interface PeerCall {
  readonly method: string;
  readonly params: JsonObject | undefined;
  readonly signal: CancelSignal;
}

export function recordingPeer(answer: (call: PeerCall) => Promise<JsonObject>) {
  const requests: PeerCall[] = [];
  const notifications: { method: string; params: JsonObject | undefined }[] = [];
  const peer: UpstreamPeer = {
    request: (method, params, signal) => {
      const call = { method, params, signal };
      requests.push(call);
      return answer(call);
    },
    notify: (method, params) => void notifications.push({ method, params }),
  };
  return { peer, requests, notifications };
}

export const noPeer = recordingPeer(() => Promise.resolve({})).peer;

export async function connect(
  transport = new FakeTransport(),
  overrides: Partial<Parameters<typeof JsonRpcUpstreamConnection.open>[0]> = {},
) {
  const connection = await JsonRpcUpstreamConnection.open({
    server: 'fake',
    transport,
    clientCapabilities: { sampling: {} },
    peer: noPeer,
    clientInfo: { name: 'coffer', version: '9.9.9' },
    defaultTimeoutMs: 1_000,
    connectTimeoutMs: 5_000,
    maxTotalTimeoutMs: 10_000,
    ...overrides,
  });
  return { connection, transport };
}

/** Lets queued promise callbacks run (no time passes). */
export const settle = () => new Promise<void>((resolve) => setImmediate(resolve));
