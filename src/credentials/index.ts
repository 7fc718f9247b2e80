/** Credentials: what the daemon (composition root) imports. */
export {
  backendSelector,
  createSecretStore,
  keychainModeFrom,
  secretStoreOn,
  type BackendSelector,
  type KeychainMode,
  type ProbedBackend,
  type SecretStoreOptions,
} from './secret-store.js';
export { createSecretResolver, secretRefsOf, type ResolvedSecrets } from './secret-resolver.js';
export { GUARDED_OAUTH_FIELDS, guardedSecretsOf } from './guarded-secrets.js';
export { accountOf, refOf, KEYCHAIN_SERVICE } from './secret-account.js';
export type { SecretBackend } from './secret-backend.js';
export { FileBackend } from './file-backend.js';
export { oauthAccountOf, oauthCredentialStoreOn } from './oauth-credential-store.js';
