import type { PreferenceRepository } from '../../../src/domain/ports.js';
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
