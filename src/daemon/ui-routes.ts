import { readFile } from 'node:fs/promises';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { dirname, extname, join, resolve, sep } from 'node:path';
import { defaultBinaryPath } from '../discovery/package-info.js';
import type { Logger } from '../observability/logger.js';
import { isAllowedHost, isAllowedOrigin, type AccessDecision } from './access-guard.js';
import { sendJson } from './error-response.js';
import type { BrowserSessions } from './login-codes.js';

export const LOGIN_PATH = '/login';
export const LOGIN_CODE_PATH = '/api/v1/ui/login-code';

const CONTENT_TYPES: Readonly<Record<string, string>> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.json': 'application/json; charset=utf-8',
  '.woff2': 'font/woff2',
};

/** The page may load and call only this daemon; nothing may frame it (clickjacking). */
const PAGE_HEADERS: Readonly<Record<string, string>> = {
  'content-security-policy':
    "default-src 'self'; img-src 'self' data:; style-src 'self'; script-src 'self'; " +
    "connect-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'self'",
  'x-frame-options': 'DENY',
  'x-content-type-options': 'nosniff',
  // The login URL carries a code: no page may pass it on in a Referer.
  'referrer-policy': 'no-referrer',
};

/** dist/web of this installation, next to the compiled daemon (bin/../dist/web). */
export function defaultWebRoot(): string {
  return resolve(dirname(defaultBinaryPath()), '..', 'dist', 'web');
}

/** `/`, `/favicon.svg`, `/assets/index-3f2a.js`: names only, no `..`, no deeper folders. */
const FILE_PATH = /^\/(?:(?:assets\/)?[\w-][\w.-]*)?$/;

function isFileRequest(method: string | undefined, path: string): boolean {
  return (method === 'GET' || method === 'HEAD') && FILE_PATH.test(path);
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/** A small self-contained page for the cases where the app itself cannot load. */
function sendPage(res: ServerResponse, status: number, title: string, message: string): void {
  const body =
    `<!doctype html><html lang="en"><meta charset="utf-8"><title>${escapeHtml(title)} · Coffer</title>` +
    '<body style="font:16px/1.5 system-ui,sans-serif;max-width:36rem;margin:4rem auto;padding:0 1rem;color:#1f2328">' +
    `<h1 style="font-size:1.4rem">${escapeHtml(title)}</h1><p>${escapeHtml(message)}</p></body></html>`;
  res.writeHead(status, {
    ...PAGE_HEADERS,
    // This one page has an inline style attribute and nothing else.
    'content-security-policy': "default-src 'none'; style-src 'unsafe-inline'",
    'content-type': 'text/html; charset=utf-8',
    'cache-control': 'no-store',
  });
  res.end(body);
}

export interface UiRoutesOptions {
  readonly sessions: BrowserSessions;
  readonly logger: Logger;
  /** Where the built UI is (index.html, assets/); defaults to dist/web. */
  readonly webRoot?: string;
}

/**
 * The browser side of the daemon: the built web UI at `/`, `/login?code=…` that turns a
 * one-time code into a session cookie, and POST /api/v1/ui/login-code for `coffer ui`.
 * The UI routes on the hash (#/servers/x), so no page path can shadow `/servers/<name>/mcp`.
 */
export class UiRoutes {
  private readonly root: string;

  constructor(private readonly options: UiRoutesOptions) {
    this.root = resolve(options.webRoot ?? defaultWebRoot());
  }

  get sessions(): BrowserSessions {
    return this.options.sessions;
  }

  /** GET /login?code=…: a navigation, so only Host (and a foreign Origin) can be checked. */
  login(req: IncomingMessage, res: ServerResponse): void {
    const { host, origin } = req.headers;
    if (
      !isAllowedHost(host, this.sessions.port) ||
      (origin !== undefined && !isAllowedOrigin(origin))
    ) {
      sendPage(res, 403, 'Refused', 'This address does not name the Coffer daemon.');
      return;
    }
    const code = new URL(req.url ?? '/', 'http://localhost').searchParams.get('code') ?? '';
    const session = this.sessions.redeem(code);
    if (session === undefined) {
      this.options.logger.warn('browser login with an unknown, used or expired code');
      sendPage(
        res,
        401,
        'This login link is no longer valid',
        'Login links work once, for two minutes. Run `coffer ui` again for a new one.',
      );
      return;
    }
    this.options.logger.info('browser session started');
    // 303 to `/`: the code leaves the address bar and the history entry.
    res.writeHead(303, {
      ...PAGE_HEADERS,
      location: '/',
      'set-cookie': this.sessions.cookieFor(session),
      'cache-control': 'no-store',
    });
    res.end();
  }

  /** POST /api/v1/ui/login-code, for a bearer-token caller (the CLI). */
  issueCode(res: ServerResponse): void {
    const issued = this.sessions.issueCode();
    const url = `http://127.0.0.1:${this.sessions.port}${LOGIN_PATH}?code=${issued.code}`;
    sendJson(res, 200, { ...issued, url });
  }

  /** A GET or HEAD of `/` or a file of the build (the paths a session cookie may open). */
  isFile(method: string | undefined, path: string): boolean {
    return isFileRequest(method, path);
  }

  /**
   * A browser navigation to a page of the UI: it gets an HTML answer when refused, where
   * an API client (or an MCP client) keeps getting JSON.
   */
  wantsPage(req: IncomingMessage, path: string): boolean {
    return isFileRequest(req.method, path) && (req.headers.accept ?? '').includes('text/html');
  }

  /** What a browser without a session sees instead of JSON. */
  denied(res: ServerResponse, decision: Extract<AccessDecision, { ok: false }>): void {
    const message =
      decision.status === 401
        ? 'Open Coffer from a terminal with `coffer ui`: it signs this browser in with a one-time link.'
        : decision.message;
    sendPage(
      res,
      decision.status,
      decision.status === 401 ? 'Sign in with coffer ui' : 'Refused',
      message,
    );
  }

  /**
   * Serves a file of the build. False when there is no such file, so the router answers
   * its usual JSON 404; a missing index.html gets a page that says how to build it.
   */
  async serveFile(req: IncomingMessage, res: ServerResponse, path: string): Promise<boolean> {
    const file = isFileRequest(req.method, path) ? this.fileFor(path) : undefined;
    let content: Buffer;
    try {
      if (file === undefined) return false;
      content = await readFile(file);
    } catch {
      if (path !== '/') return false;
      sendPage(res, 503, 'The web UI is not built', 'Run `npm run build`, then reload.');
      return true;
    }
    const hashed = path.startsWith('/assets/');
    res.writeHead(200, {
      ...PAGE_HEADERS,
      'content-type': CONTENT_TYPES[extname(file)] ?? 'application/octet-stream',
      'content-length': content.length,
      // Built assets carry a content hash in their names; the page itself must be fresh.
      'cache-control': hashed ? 'private, max-age=31536000, immutable' : 'no-store',
    });
    res.end(req.method === 'HEAD' ? undefined : content);
    return true;
  }

  private fileFor(path: string): string | undefined {
    const relative = path === '/' ? 'index.html' : path.slice(1);
    const file = resolve(join(this.root, relative));
    return file.startsWith(this.root + sep) ? file : undefined;
  }
}
