import { OAuthError } from '@modelcontextprotocol/sdk/server/auth/errors.js';

/**
 * An error's first line for a user. The SDK turns a refusal like `{"error":"invalid_token"}`
 * without a description into an OAuth error whose message is empty: say its code then.
 */
export function errorText(error: unknown): string {
  if (!(error instanceof Error)) return 'unknown error';
  const first = error.message.split('\n')[0] ?? '';
  if (error instanceof OAuthError) {
    const answered = `the server answered "${error.errorCode}"`;
    return first === '' ? answered : `${first} (${answered})`;
  }
  return first === '' ? error.name : first;
}
