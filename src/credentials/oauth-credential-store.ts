import type { OAuthCredentialStore, OAuthSlot } from '../domain/ports.js';
import type { BackendSelector } from './secret-store.js';

/**
 * OAuth credentials next to the secrets, in the same backend: account
 * `<server>/oauth/<slot>` under service `coffer`. `refOf` does not read these accounts
 * as secrets, so `coffer secrets list` never shows them.
 */
export function oauthAccountOf(server: string, slot: OAuthSlot): string {
  return `${server}/oauth/${slot}`;
}

export function oauthCredentialStoreOn(select: BackendSelector): OAuthCredentialStore {
  return {
    load: async (server, slot) => (await select()).backend.get(oauthAccountOf(server, slot)),
    save: async (server, slot, value) =>
      (await select()).backend.set(oauthAccountOf(server, slot), value),
    forget: async (server, slot) => (await select()).backend.delete(oauthAccountOf(server, slot)),
  };
}
