import { closeSync, fchmodSync, openSync, realpathSync } from 'node:fs';
import type { Server } from 'node:http';
import type { CofferPaths } from '../config/home.js';
import { ensurePrivateDir } from '../config/private-files.js';
import {
  DAEMON_FILE_VERSION,
  daemonInfoFromRecord,
  type DaemonInfo,
  type DaemonRecord,
} from '../discovery/daemon-record.js';
import { withHomeAccess } from '../discovery/home-access.js';
import { inspectDaemon } from '../discovery/inspect-daemon.js';
import { defaultBinaryPath, packageVersion } from '../discovery/package-info.js';
import { CofferError } from '../domain/errors.js';
import { systemClock, type Clock } from '../domain/ports.js';
import { createLogger, type Logger } from '../observability/logger.js';
import { createDaemonApi } from './daemon-api.js';
import { readSettings, type DaemonSettings } from '../config/settings.js';
import { daemonSocketPath } from '../config/socket-path.js';
import { generateToken, removeOwnDaemonFile, writeDaemonFile } from './daemon-file.js';
import { guardDaemonFile } from './daemon-file-guard.js';
import type { CreateServices, DaemonServices } from './daemon-services.js';
import { createDaemonRouter, createDaemonServer } from './http-server.js';
import { bindFirstFreePort } from './port-binding.js';
import type { PortRange } from './port-range.js';
import { watchOwnProcess } from './own-process.js';
import { createShutdown, DEFAULT_SHUTDOWN_TIMEOUT_MS } from './shutdown.js';
import { listenOnSocket, type SocketListener } from './socket-listener.js';
import { BrowserSessions } from './login-codes.js';
import { UiRoutes } from './ui-routes.js';

/** Below Node's default headersTimeout (60 s), as Node requires. */
const KEEP_ALIVE_TIMEOUT_MS = 30_000;

export interface RunDaemonOptions {
  readonly paths: CofferPaths;
  readonly portRange: PortRange;
  readonly createServices: CreateServices;
  /** Defaults to a pino logger writing logs/coffer.log. */
  readonly logger?: Logger;
  readonly clock?: Clock;
  /** Recorded as daemon.json `binary_path`; defaults to this installation's bin/coffer.js. */
  readonly binaryPath?: string;
  /** Upper bound for services.close() on shutdown. Default 5 s. */
  readonly shutdownTimeoutMs?: number;
  /**
   * True (the `coffer daemon` process): handle SIGTERM/SIGINT and uncaught errors, and
   * exit once stopped. False (in-process tests): only `stop()` stops it.
   */
  readonly ownProcess?: boolean;
  /** The daemon's tunables; read from the environment when not given. */
  readonly settings?: DaemonSettings;
}

export interface DaemonHandle {
  readonly info: DaemonInfo;
  /** Graceful shutdown; resolves once daemon.json is removed. */
  stop(reason?: string): Promise<void>;
  /** Resolves when the daemon has stopped, for whatever reason. */
  readonly stopped: Promise<void>;
}

/**
 * Home 0700, logs 0700, log file 0600 (pino would create it with the umask's mode). A home
 * this user cannot write fails here with STORE_FAILURE and what to do.
 */
function preparePrivateHome(paths: CofferPaths): void {
  withHomeAccess(paths.home, () => {
    ensurePrivateDir(paths.home);
    ensurePrivateDir(paths.logsDir);
    const fd = openSync(paths.daemonLog, 'a', 0o600);
    try {
      fchmodSync(fd, 0o600);
    } finally {
      closeSync(fd);
    }
  });
}

async function refuseIfAlreadyRunning(paths: CofferPaths): Promise<void> {
  const found = await inspectDaemon(paths);
  if (found.state === 'running' && found.record.pid !== process.pid) {
    throw new CofferError(
      'DAEMON_ALREADY_RUNNING',
      `A Coffer daemon is already running for ${paths.home} (pid ${found.record.pid}, port ${found.record.port})`,
      { hint: 'stop it with `coffer stop` first' },
    );
  }
}

function flushLogger(logger: Logger): Promise<void> {
  return new Promise((resolve) => {
    try {
      logger.flush(() => resolve());
    } catch {
      resolve();
    }
    setTimeout(resolve, 500).unref();
  });
}

/**
 * The shim's socket channel. A daemon that cannot listen on it still serves HTTP (the
 * daemon.json then names no socket, and clients use /mcp), so this never fails the start.
 */
async function openSocketChannel(
  paths: CofferPaths,
  services: DaemonServices,
  logger: Logger,
): Promise<SocketListener | undefined> {
  const { handleSocket } = services;
  if (handleSocket === undefined) return undefined;
  const path = daemonSocketPath(paths.home);
  try {
    return await listenOnSocket(path, (connection) => handleSocket(connection), logger);
  } catch (error) {
    logger.warn({ err: error, socket: path }, 'cannot listen on the socket channel; HTTP only');
    return undefined;
  }
}

/** The HTTP server on the first free port of the range, its keep-alive set for fetch. */
function listenOnLoopback(server: Server, range: PortRange, logger: Logger): Promise<number> {
  // Node closes an idle keep-alive socket after 5 s, and fetch (undici) reuses one until
  // the server's hint minus 1 s: on a loaded machine a call could be written onto a
  // socket the daemon was closing ("fetch failed" in the load test). Sockets idle that
  // long are rare under steady traffic; with a longer timeout the race almost never arms.
  server.keepAliveTimeout = KEEP_ALIVE_TIMEOUT_MS;
  server.on('clientError', (error, socket) => {
    logger.debug({ err: error }, 'http client error');
    socket.destroy();
  });
  return bindFirstFreePort(server, range);
}

/** What the services say of themselves for /api/v1/status; a failure there is logged, not thrown. */
function servicesStatus(services: DaemonServices, logger: Logger): Record<string, unknown> {
  try {
    return services.status();
  } catch (error) {
    logger.error({ err: error }, 'services.status() failed');
    return { status_error: 'services status unavailable' };
  }
}

/**
 * Runs the daemon: ensure home → bind port → create services → write daemon.json →
 * serve. Shutdown (SIGTERM, SIGINT, POST /api/v1/daemon/stop): stop accepting,
 * services.close() (bounded), remove daemon.json, exit 0.
 */
export async function runDaemon(options: RunDaemonOptions): Promise<DaemonHandle> {
  const { paths } = options;
  const clock = options.clock ?? systemClock;
  const ownProcess = options.ownProcess ?? false;

  preparePrivateHome(paths);
  const logger = options.logger ?? createLogger({ destination: paths.daemonLog });
  try {
    return await startDaemon(options, logger, clock, ownProcess);
  } catch (error) {
    logger.error({ err: error }, 'daemon failed to start');
    await flushLogger(logger);
    throw error;
  }
}

async function startDaemon(
  options: RunDaemonOptions,
  logger: Logger,
  clock: Clock,
  ownProcess: boolean,
): Promise<DaemonHandle> {
  const { paths } = options;
  await refuseIfAlreadyRunning(paths);

  const daemonServer = createDaemonServer();
  const { server } = daemonServer;
  const port = await listenOnLoopback(server, options.portRange, logger);
  const token = generateToken();
  const startedAt = clock.now();

  let services: DaemonServices;
  let settings: DaemonSettings;
  try {
    // Read where the services used to read them: a bad value fails the start the same
    // way (bound port closed, "daemon failed to start" logged for discovery to report).
    settings = options.settings ?? readSettings();
    services = await options.createServices({ paths, logger, port, token, settings, startedAt });
  } catch (error) {
    server.close();
    throw error;
  }

  const socket = await openSocketChannel(paths, services, logger);
  const record: DaemonRecord = {
    version: DAEMON_FILE_VERSION,
    pid: process.pid,
    port,
    token,
    started_at: startedAt.toISOString(),
    binary_path: options.binaryPath ?? defaultBinaryPath(),
    ...(socket === undefined ? {} : { socket: socket.path }),
    home: realpathSync(paths.home),
  };
  const info = daemonInfoFromRecord(record);

  const shutdown = createShutdown({
    server,
    logger,
    timeoutMs: options.shutdownTimeoutMs ?? DEFAULT_SHUTDOWN_TIMEOUT_MS,
    closeServices: async () => {
      // Connections end first, so no new message reaches a session being closed.
      await socket?.close();
      await services.close();
    },
    removeDaemonFile: () => {
      removeOwnDaemonFile(paths, token);
    },
  });

  let resolveStopped!: () => void;
  const stopped = new Promise<void>((resolve) => {
    resolveStopped = resolve;
  });
  let exitCode = 0;
  const guard: { current?: { stop(): void } } = {};
  const stop = async (reason = 'stop requested'): Promise<void> => {
    // First: a guard still running after daemon.json is removed would write it again.
    guard.current?.stop();
    await shutdown(reason);
    resolveStopped();
    if (ownProcess) {
      await flushLogger(logger);
      process.exit(exitCode);
    }
  };

  const status = (): Record<string, unknown> => ({
    ...servicesStatus(services, logger),
    version: packageVersion(),
    pid: process.pid,
    port,
    started_at: record.started_at,
    uptime_seconds: Math.max(0, Math.floor((clock.now().getTime() - startedAt.getTime()) / 1000)),
    mcp_url: info.mcpUrl,
  });

  const api = createDaemonApi({
    status,
    requestStop: (reason) => void stop(reason),
    forward: (request) => services.api.fetch(request),
    logger,
  });

  if (ownProcess) watchOwnProcess(logger, { stop, crashed: () => (exitCode = 1) });

  try {
    writeDaemonFile(paths, record);
  } catch (error) {
    await shutdown('could not write daemon.json');
    throw error;
  }
  guard.current = guardDaemonFile({
    paths,
    record,
    logger,
    onReplaced: (pid) => void stop(`daemon ${pid} owns this home now`),
    intervalMs: settings.daemonFileCheckMs,
  });
  const ui = new UiRoutes({ sessions: new BrowserSessions(port, clock), logger });
  daemonServer.serve(createDaemonRouter({ port, token, logger, services, api, ui }));
  logger.info({ port, mcpUrl: info.mcpUrl }, 'daemon listening');

  return { info, stop, stopped };
}
