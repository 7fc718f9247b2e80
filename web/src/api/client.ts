/**
 * Calls /api/v1 with the session cookie the daemon set at /login. Every state change
 * carries X-Coffer-CSRF: the daemon refuses a cookie-authenticated change without it,
 * which is what keeps a cross-site form from acting as the user.
 */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly hint?: string,
  ) {
    super(message);
  }

  /** "command: a stdio server needs a command" → field `command`, for the form. */
  get field(): string | undefined {
    if (this.code === 'INVALID_SERVER_NAME') return 'name';
    const match = /^([a-z_]+)(?:[.[][^:]*)?: /.exec(this.message);
    return match?.[1];
  }

  /** The message without its field prefix, to show under that field. */
  get detail(): string {
    return this.message.replace(/^[a-z_]+(?:[.[][^:]*)?: /, '');
  }
}

async function failure(response: Response): Promise<ApiError> {
  try {
    const body = (await response.json()) as {
      error?: { code?: string; message?: string; hint?: string };
    };
    const error = body.error ?? {};
    return new ApiError(
      response.status,
      error.code ?? 'HTTP_' + String(response.status),
      error.message ?? `The daemon answered ${response.status}`,
      ...(error.hint === undefined ? [] : [error.hint]),
    );
  } catch {
    return new ApiError(response.status, 'HTTP_' + String(response.status), response.statusText);
  }
}

export async function request<T>(method: string, path: string, body?: unknown): Promise<T> {
  const headers: Record<string, string> = { accept: 'application/json' };
  if (method !== 'GET') headers['x-coffer-csrf'] = '1';
  if (body !== undefined) headers['content-type'] = 'application/json';
  let response: Response;
  try {
    response = await fetch(`/api/v1${path}`, {
      method,
      headers,
      credentials: 'same-origin',
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
  } catch {
    // What to do, not a question: a daemon started again does not know this page's
    // session, and `coffer ui` both starts it and signs the page in.
    throw new ApiError(
      0,
      'DAEMON_UNAVAILABLE',
      'Cannot reach the Coffer daemon: it is not running. Start it with `coffer ui` in a terminal, which signs this page in again.',
    );
  }
  if (!response.ok) throw await failure(response);
  const text = await response.text();
  return (text === '' ? undefined : JSON.parse(text)) as T;
}

export const api = {
  get: <T>(path: string) => request<T>('GET', path),
  post: <T>(path: string, body?: unknown) => request<T>('POST', path, body),
  patch: <T>(path: string, body: unknown) => request<T>('PATCH', path, body),
  delete: (path: string) => request<void>('DELETE', path),
};

export const serverPath = (name: string): string => `/servers/${encodeURIComponent(name)}`;

export function errorText(error: unknown): string {
  if (error instanceof ApiError) return error.message;
  return error instanceof Error ? error.message : String(error);
}
