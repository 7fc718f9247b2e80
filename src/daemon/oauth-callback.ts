import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Logger } from '../observability/logger.js';
import type { CallbackOutcome, OAuthSignInFlow } from '../upstream/oauth/index.js';

const escapeHtml = (text: string): string =>
  text.replace(
    /[&<>"']/g,
    (char) =>
      ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[char] ?? char,
  );

function page(outcome: CallbackOutcome): string {
  const title = outcome.ok ? 'Signed in' : 'Sign-in failed';
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Coffer: ${title}</title>
<style>body{font:16px system-ui,sans-serif;max-width:36rem;margin:4rem auto;padding:0 1rem}
h1{color:${outcome.ok ? '#1a7f37' : '#cf222e'}}</style></head>
<body><h1>${title}</h1><p>${escapeHtml(outcome.message)}</p></body></html>
`;
}

/**
 * GET /oauth/callback: where the authorization server sends the browser back. It needs
 * no daemon token (the browser has none): the one-time, expiring `state` is what lets
 * it in. The answer is a small page saying what happened; never a token.
 */
export function handleOAuthCallback(
  flow: OAuthSignInFlow,
  logger: Logger,
): (req: IncomingMessage, res: ServerResponse) => void {
  return (req, res) => {
    const query = new URL(req.url ?? '/', 'http://127.0.0.1').searchParams;
    flow
      .complete(query)
      .catch((error: unknown): CallbackOutcome => {
        logger.error({ err: error }, 'OAuth callback failed');
        return { ok: false, message: 'Internal error; see logs/coffer.log for details.' };
      })
      .then((outcome) => {
        if (!outcome.ok) logger.warn({ server: outcome.server }, outcome.message);
        res.writeHead(outcome.ok ? 200 : 400, {
          'content-type': 'text/html; charset=utf-8',
          'cache-control': 'no-store',
          'referrer-policy': 'no-referrer',
        });
        res.end(page(outcome));
      })
      .catch(() => res.destroy());
  };
}
