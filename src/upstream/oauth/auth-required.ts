import { CofferError } from '../../domain/errors.js';

/** The command that signs a server in, for messages and hints. */
export function loginCommand(server: string): string {
  return `coffer mcp login ${server}`;
}

/**
 * A remote server wants a sign-in Coffer cannot do on its own (never signed in, or its
 * refresh token was refused). The command is in the message itself, not only in the
 * hint: agents often show just the message.
 */
export function authRequired(server: string, why = 'needs you to sign in'): CofferError {
  return new CofferError(
    'AUTH_REQUIRED',
    `Server "${server}" ${why}: run \`${loginCommand(server)}\``,
    { hint: 'it opens your browser to approve Coffer', data: { server } },
  );
}
