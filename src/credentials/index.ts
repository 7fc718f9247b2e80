/** Credentials: what the daemon (composition root) imports. */
export {
  createSecretStore,
  keychainModeFrom,
  type KeychainMode,
  type ProbedBackend,
  type SecretStoreOptions,
} from './secret-store.js';
export { createSecretResolver, secretRefsOf, type ResolvedSecrets } from './secret-resolver.js';
export { accountOf, refOf, KEYCHAIN_SERVICE } from './secret-account.js';
export type { SecretBackend } from './secret-backend.js';
export { FileBackend } from './file-backend.js';
