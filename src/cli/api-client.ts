import { cofferPaths, type CofferPaths } from '../config/home.js';
import type { DaemonInfo } from '../discovery/daemon-record.js';
import { findDaemon } from '../discovery/inspect-daemon.js';
import { ensureDaemon } from '../discovery/ensure-daemon.js';
import { packageVersion } from '../discovery/package-info.js';
import { CofferError, isErrorCode } from '../domain/errors.js';
import { daemonRequest, DaemonRequestTimeout, type DaemonAnswer } from './daemon-request.js';

/** The daemon's REST API (`/api/v1`), as commands use it. Paths are relative to /api/v1. */
export interface ApiClient {
  readonly daemon: DaemonInfo;
  get<T>(path: string): Promise<T>;
  post<T>(path: string, body?: unknown): Promise<T>;
  patch<T>(path: string, body: unknown): Promise<T>;
  delete(path: string): Promise<void>;
}

export interface ConnectApiOptions {
  /** Start the daemon when it is not running (default true). */
  readonly spawn?: boolean;
  readonly paths?: CofferPaths;
  /** Environment for a spawned daemon. */
  readonly env?: NodeJS.ProcessEnv;
  /** Upper bound for finding or starting the daemon. */
  readonly timeoutMs?: number;
  readonly requestTimeoutMs?: number;
}

export interface ApiClientOptions {
  readonly paths?: CofferPaths;
  /** Per request; default 120 s (a connection test may take long). */
  readonly requestTimeoutMs?: number;
}

const DEFAULT_REQUEST_TIMEOUT_MS = 120_000;

/** Turns `{error:{code,message,hint?}}` into a CofferError; anything else into INTERNAL. */
function errorFromAnswer(answer: DaemonAnswer): CofferError {
  let body: unknown;
  try {
    body = JSON.parse(answer.text);
  } catch {
    body = undefined;
  }
  const error =
    body !== null && typeof body === 'object' && 'error' in body ? body.error : undefined;
  if (error !== null && typeof error === 'object') {
    const { code, message, hint, traceId } = error as Record<string, unknown>;
    const text =
      typeof message === 'string' ? message : `The daemon answered HTTP ${answer.status}`;
    const knownCode = isErrorCode(code) ? code : 'INTERNAL';
    let userHint = typeof hint === 'string' ? hint : undefined;
    if (userHint === undefined && knownCode === 'UNAUTHORIZED') {
      userHint =
        'the daemon token changed; retry, or restart it with `coffer stop` and `coffer start`';
    }
    return new CofferError(knownCode, text, {
      ...(userHint === undefined ? {} : { hint: userHint }),
      data: {
        status: answer.status,
        ...(typeof code === 'string' ? { code } : {}),
        ...(typeof traceId === 'string' ? { traceId } : {}),
      },
    });
  }
  return new CofferError('INTERNAL', `The daemon answered HTTP ${answer.status}`, {
    data: { status: answer.status },
  });
}

/** A client for a daemon already found (see connectApi to find or start it). */
export function createApiClient(daemon: DaemonInfo, options: ApiClientOptions = {}): ApiClient {
  const paths = options.paths ?? cofferPaths();
  const timeoutMs = options.requestTimeoutMs ?? DEFAULT_REQUEST_TIMEOUT_MS;

  const request = async (method: string, path: string, body?: unknown): Promise<unknown> => {
    const url = `${daemon.baseUrl}/api/v1${path.startsWith('/') ? path : `/${path}`}`;
    const headers: Record<string, string> = {
      authorization: `Bearer ${daemon.token}`,
      accept: 'application/json',
      // Names the CLI in the activity log's admin rows ("who changed this").
      'user-agent': `coffer-cli/${packageVersion()}`,
    };
    if (body !== undefined) headers['content-type'] = 'application/json';
    let answer: DaemonAnswer;
    try {
      answer = await daemonRequest(url, {
        method,
        headers,
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
        timeoutMs,
      });
    } catch (error) {
      if (error instanceof DaemonRequestTimeout) {
        throw new CofferError(
          'DAEMON_UNAVAILABLE',
          `The Coffer daemon did not answer within ${timeoutMs / 1000} s`,
          { hint: `see ${paths.daemonLog}`, cause: error },
        );
      }
      throw new CofferError(
        'DAEMON_UNAVAILABLE',
        `Cannot reach the Coffer daemon at ${daemon.baseUrl}`,
        {
          hint: `check \`coffer status\`; its log is ${paths.daemonLog}`,
          cause: error,
        },
      );
    }
    if (answer.status < 200 || answer.status > 299) throw errorFromAnswer(answer);
    if (answer.text === '') return undefined;
    try {
      return JSON.parse(answer.text) as unknown;
    } catch (error) {
      throw new CofferError('INTERNAL', `The daemon answered ${method} ${path} with invalid JSON`, {
        cause: error,
      });
    }
  };

  return {
    daemon,
    get: async <T>(path: string) => (await request('GET', path)) as T,
    post: async <T>(path: string, body?: unknown) => (await request('POST', path, body)) as T,
    patch: async <T>(path: string, body: unknown) => (await request('PATCH', path, body)) as T,
    delete: async (path: string) => {
      await request('DELETE', path);
    },
  };
}

/**
 * Finds the daemon (starting it unless `spawn: false`) and returns an API client.
 * Not running with `spawn: false` → DAEMON_UNAVAILABLE with a hint.
 */
export async function connectApi(options: ConnectApiOptions = {}): Promise<ApiClient> {
  const paths = options.paths ?? cofferPaths();
  const clientOptions: ApiClientOptions = {
    paths,
    ...(options.requestTimeoutMs === undefined
      ? {}
      : { requestTimeoutMs: options.requestTimeoutMs }),
  };
  if (options.spawn === false) {
    const daemon = await findDaemon(paths);
    if (daemon === undefined) {
      throw new CofferError('DAEMON_UNAVAILABLE', 'The Coffer daemon is not running', {
        hint: 'start it with `coffer start`',
      });
    }
    return createApiClient(daemon, clientOptions);
  }
  const daemon = await ensureDaemon(paths, {
    ...(options.env === undefined ? {} : { env: options.env }),
    ...(options.timeoutMs === undefined ? {} : { timeoutMs: options.timeoutMs }),
  });
  return createApiClient(daemon, clientOptions);
}
