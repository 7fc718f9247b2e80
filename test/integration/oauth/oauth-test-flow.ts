/**
 * What the OAuth integration tests share: a remote server's definition, and a sign-in
 * flow whose vault is a file store in a temporary home (no OS keychain needed).
 */
import { join } from 'node:path';
import { backendSelector, oauthCredentialStoreOn } from '../../../src/credentials/index.js';
import { systemClock } from '../../../src/domain/ports.js';
import type { ServerDefinition } from '../../../src/domain/server-definition.js';
import {
  OAuthSignInFlow,
  OAuthVault,
  type SignInFlowOptions,
} from '../../../src/upstream/oauth/index.js';

/** Where the flow says the browser comes back; nothing listens there in these tests. */
export const TEST_CALLBACK = 'http://127.0.0.1:9/oauth/callback';

export function remoteDefinition(name: string, url: string): ServerDefinition {
  return {
    name,
    transport: 'http',
    url,
    args: [],
    env: {},
    headers: {},
    secret_env: [],
    secret_headers: [],
    enabled: true,
    auto_enable_new_capabilities: true,
    shared: false,
  };
}

export function testSignInFlow(
  home: string,
  definition: ServerDefinition,
  options: Partial<SignInFlowOptions> = {},
): OAuthSignInFlow {
  const select = backendSelector({
    paths: { secretsFile: join(home, 'secrets.json') },
    env: { COFFER_KEYCHAIN: 'file' },
  });
  return new OAuthSignInFlow({
    vault: new OAuthVault(oauthCredentialStoreOn(select)),
    clock: systemClock,
    lookup: () => Promise.resolve(definition),
    redirectUrl: TEST_CALLBACK,
    redirectUris: [TEST_CALLBACK],
    refreshSkewMs: 60_000,
    ...options,
  });
}
