import { StreamableHTTPError } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { OAuthError } from '@modelcontextprotocol/sdk/server/auth/errors.js';

/** Enough of a server's error page to recognise it; the rest is in no one's interest. */
export const MAX_ERROR_TEXT = 300;

/**
 * An error's first line for a user, at most MAX_ERROR_TEXT characters. The SDK turns a
 * refusal like `{"error":"invalid_token"}` without a description into an OAuth error whose
 * message is empty: say its code then. An answer that is not an MCP message fails the
 * SDK's schema, whose message is a JSON dump of issues (its first line a lone `[`): say
 * what was wrong instead. An HTTP failure says its status.
 */
export function errorText(error: unknown): string {
  if (!(error instanceof Error)) return 'unknown error';
  return capped(fullText(error));
}

function fullText(error: Error): string {
  const issue = schemaIssue(error);
  if (issue !== undefined) return `its answer is not an MCP message (${issue})`;
  const first = error.message.split('\n')[0] ?? '';
  if (error instanceof OAuthError) {
    const answered = `the server answered "${error.errorCode}"`;
    return first === '' ? answered : `${first} (${answered})`;
  }
  if (error instanceof StreamableHTTPError && typeof error.code === 'number') {
    const status = `HTTP ${error.code}`;
    if (!first.includes(status)) return `${status}: ${first}`;
  }
  return first === '' ? error.name : first;
}

function capped(text: string): string {
  if (text.length <= MAX_ERROR_TEXT) return text;
  return `${text.slice(0, MAX_ERROR_TEXT)}… (${text.length - MAX_ERROR_TEXT} more characters)`;
}

/** A zod error's first issue, as "message at path". */
function schemaIssue(error: Error): string | undefined {
  const issues = (error as { issues?: unknown }).issues;
  if (error.name !== 'ZodError' || !Array.isArray(issues)) return undefined;
  const first = issues[0] as { message?: unknown; path?: unknown } | undefined;
  const message = typeof first?.message === 'string' ? first.message : 'unexpected shape';
  const path = Array.isArray(first?.path) && first.path.length > 0 ? first.path.join('.') : '';
  return path === '' ? message : `${message} at ${path}`;
}
