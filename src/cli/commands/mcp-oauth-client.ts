import { CofferError } from '../../domain/errors.js';
import type { ApiClient, CliContext } from '../cli-context.js';
import { readSecretValues } from './secret-input.js';

/**
 * `coffer mcp add … --oauth-client-id ID [--oauth-client-secret | --oauth-client-secret-from-stdin]`:
 * a client registered by hand with the server's authorization server (for servers
 * without dynamic registration). The secret is read from a prompt or stdin, never the
 * command line, and goes to the keychain through the daemon.
 */
export interface OAuthClientFlags {
  readonly oauthClientId?: string;
  readonly oauthClientSecret?: boolean;
  readonly oauthClientSecretFromStdin?: boolean;
  readonly fromStdin?: boolean;
}

export interface OAuthClientInput {
  store(api: ApiClient, server: string): Promise<void>;
}

export async function readOAuthClient(
  context: CliContext,
  flags: OAuthClientFlags,
  remote: boolean,
): Promise<OAuthClientInput | undefined> {
  const wantsSecret = flags.oauthClientSecret === true || flags.oauthClientSecretFromStdin === true;
  if (flags.oauthClientId === undefined) {
    if (wantsSecret)
      throw new CofferError('INVALID_INPUT', 'an OAuth client secret needs --oauth-client-id too');
    return undefined;
  }
  if (!remote)
    throw new CofferError('INVALID_INPUT', '--oauth-client-id applies to --url servers only');
  if (flags.oauthClientSecretFromStdin === true && flags.fromStdin === true)
    throw new CofferError(
      'INVALID_INPUT',
      '--oauth-client-secret-from-stdin and --from-stdin both read stdin; use one',
    );
  const [secret] = wantsSecret
    ? await readSecretValues(
        ['the OAuth client secret'],
        flags.oauthClientSecretFromStdin === true,
        context.stderr,
      )
    : [];
  const clientId = flags.oauthClientId;
  return {
    store: async (api, server) => {
      await api.post(`/servers/${encodeURIComponent(server)}/oauth-client`, {
        client_id: clientId,
        ...(secret === undefined ? {} : { client_secret: secret }),
      });
    },
  };
}
