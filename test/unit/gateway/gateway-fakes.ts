import type {
  JsonObject,
  PreferenceRepository,
  UpstreamConnection,
  UpstreamConnector,
} from '../../../src/domain/ports.js';
import { UpstreamPool } from '../../../src/gateway/upstream-pool.js';
import type { ServerRecord } from '../../../src/domain/server-definition.js';

/** A registered stdio server as the store would hand it over; only the name matters to fakes. */
export function fakeServer(name: string): ServerRecord {
  return {
    name,
    transport: 'stdio',
    command: 'npx',
    args: [],
    env: {},
    headers: {},
    enabled: true,
    auto_enable_new_capabilities: true,
    id: 1,
    created_at: '',
    updated_at: '',
  } as unknown as ServerRecord;
}

/** A promise with its resolve and reject, for a test to settle when it chooses. */
export function deferred<T>() {
  let resolve!: (value: T) => void;
  let reject!: (error: unknown) => void;
  const promise = new Promise<T>((yes, no) => {
    resolve = yes;
    reject = no;
  });
  return { promise, resolve, reject };
}

/** Preferences that enable every key they are shown. */
export const allEnabled = {
  reconcile: (_server: string, _type: string, keys: readonly string[]) =>
    Promise.resolve(new Map(keys.map((key) => [key, true]))),
} as unknown as PreferenceRepository;

/** A live connection to `server` whose every request answers `answer` (a tool list by default). */
export function listingConnection(
  server: string,
  answer: (method: string) => Promise<JsonObject> = () =>
    Promise.resolve({ tools: [{ name: 'echo' }] }),
): UpstreamConnection {
  return {
    server,
    serverCapabilities: { tools: {} },
    request: (method) => answer(method),
    notify: () => Promise.resolve(),
    close: () => Promise.resolve(),
    closed: new Promise(() => undefined),
  };
}

/** A session's pool of connections made by `connector`, for a client that asks nothing. */
export function fakePool(connector: UpstreamConnector): UpstreamPool {
  return new UpstreamPool(connector, () => ({
    clientCapabilities: {},
    peer: { request: () => Promise.resolve({}), notify: () => undefined },
    sessionId: null,
  }));
}
