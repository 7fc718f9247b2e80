/** OAuth for remote upstreams: what the daemon (composition root) imports. */
export { authRequired, loginCommand } from './auth-required.js';
export {
  CofferOAuthProvider,
  DEFAULT_REFRESH_SKEW_MS,
  type OAuthClientSettings,
} from './coffer-oauth-provider.js';
export { OAuthVault, type StoredTokens } from './oauth-vault.js';
export {
  OAuthSignInFlow,
  DEFAULT_SIGN_IN_TTL_MS,
  type CallbackOutcome,
  type SignInFlowOptions,
} from './oauth-sign-in.js';
