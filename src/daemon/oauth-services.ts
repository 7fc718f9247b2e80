import type { OAuthClientProvider } from '@modelcontextprotocol/sdk/client/auth.js';
import { adminEntry } from '../domain/admin-entry.js';
import type { CofferError } from '../domain/errors.js';
import type { ActivitySink, Clock, OAuthCredentialStore } from '../domain/ports.js';
import type { ServerRepository } from '../domain/ports.js';
import type { ServerDefinition } from '../domain/server-definition.js';
import type { ServerStates } from '../gateway/server-states.js';
import type { Logger } from '../observability/logger.js';
import { OAuthSignInFlow, OAuthVault } from '../upstream/oauth/index.js';
import type { PortRange } from './port-range.js';

export const OAUTH_CALLBACK_PATH = '/oauth/callback';

export interface OAuthServicesOptions {
  readonly store: OAuthCredentialStore;
  readonly servers: ServerRepository;
  readonly states: ServerStates;
  readonly activity: ActivitySink;
  readonly clock: Clock;
  readonly logger: Logger;
  /** The daemon's port, and the range it may use: the callback URL of each is registered. */
  readonly port: number;
  readonly portRange: PortRange;
  readonly refreshSkewMs: number;
  readonly clientMetadataUrl: string | undefined;
  /** A server just signed in: drop its cached lists and connections everywhere. */
  readonly onSignedIn: (server: string) => void;
}

export interface OAuthServices {
  readonly signIn: OAuthSignInFlow;
  /** The connector's provider factory; undefined for servers that bring their own Authorization. */
  readonly authProvider: (definition: ServerDefinition) => OAuthClientProvider | undefined;
}

const callbackUrl = (port: number): string => `http://127.0.0.1:${port}${OAUTH_CALLBACK_PATH}`;

/** A server given an Authorization header (plain or secret) authenticates itself. */
function hasOwnAuthorization(definition: ServerDefinition): boolean {
  const names = [...Object.keys(definition.headers), ...definition.secret_headers];
  return names.some((name) => name.toLowerCase() === 'authorization');
}

/**
 * OAuth for remote servers (docs/OAUTH.md): one vault over the keychain, one sign-in
 * flow, and a provider per upstream connection. A server that needs a sign-in becomes
 * "needs sign-in" (states, activity); fresh tokens clear it.
 */
export function createOAuthServices(options: OAuthServicesOptions): OAuthServices {
  const { states, activity, clock, logger } = options;
  const vault = new OAuthVault(options.store);
  const record = (server: string, action: string, failed: boolean): void =>
    activity.record(
      adminEntry({
        at: clock.now().toISOString(),
        server,
        action,
        errorCode: failed ? 'AUTH_REQUIRED' : null,
      }),
    );
  const signedIn = (server: string): void => states.signedIn(server);
  const signIn = new OAuthSignInFlow({
    vault,
    clock,
    lookup: (server) => options.servers.get(server),
    redirectUrl: callbackUrl(options.port),
    redirectUris: portsOf(options.portRange, options.port).map(callbackUrl),
    refreshSkewMs: options.refreshSkewMs,
    ...(options.clientMetadataUrl === undefined
      ? {}
      : { clientMetadataUrl: options.clientMetadataUrl }),
    onSignedIn: (server) => {
      signedIn(server);
      record(server, 'server.login', false);
      logger.info({ server }, 'signed in to server');
      options.onSignedIn(server);
    },
    onSignedOut: (server) => {
      record(server, 'server.logout', false);
      logger.info({ server }, 'signed out of server');
    },
  });
  const needsSignIn = (server: string, error: CofferError): void => {
    if (states.status(server).state !== 'needs-sign-in') {
      record(server, 'server.sign-in-required', true);
      logger.warn({ server }, 'server needs a sign-in');
    }
    states.failed(server, error);
  };
  return {
    signIn,
    authProvider: (definition) =>
      hasOwnAuthorization(definition)
        ? undefined
        : signIn.provider(definition, {
            mode: 'connect',
            onSignInNeeded: needsSignIn,
            onSignedIn: signedIn,
          }),
  };
}

/** The daemon's own port first, then the rest of its range. */
function portsOf(range: PortRange, port: number): number[] {
  const ports = [port];
  for (let next = range.first; next <= range.last && ports.length < 64; next += 1)
    if (next !== port) ports.push(next);
  return ports;
}
