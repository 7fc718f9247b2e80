import type { OAuthCredentialStore } from '../../../src/domain/ports.js';

/** The keychain's OAuth entries in a map (`<server>/<slot>` → JSON text), for the vault's tests. */
export function memoryStore(): OAuthCredentialStore & { saved: Map<string, string> } {
  const saved = new Map<string, string>();
  return {
    saved,
    load: (server, slot) => Promise.resolve(saved.get(`${server}/${slot}`)),
    save: (server, slot, value) => Promise.resolve(void saved.set(`${server}/${slot}`, value)),
    forget: (server, slot) => Promise.resolve(saved.delete(`${server}/${slot}`)),
  };
}
