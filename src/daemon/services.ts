import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { upstreamLogPath } from '../config/home.js';
import { createApiApp } from '../api/index.js';
import {
  backendSelector,
  createSecretResolver,
  oauthCredentialStoreOn,
  secretStoreOn,
} from '../credentials/index.js';
import { packageVersion } from '../discovery/package-info.js';
import { systemClock, type ActivitySink, type SessionNotifier } from '../domain/ports.js';
import { AdminCatalog } from '../gateway/admin-catalog.js';
import { AdminToolSearch } from '../gateway/admin-tool-search.js';
import { contextBudgetReader } from '../gateway/context-budget.js';
import { Gateway } from '../gateway/gateway.js';
import { createMcpEndpoint } from '../gateway/mcp-endpoint.js';
import { createSocketEndpoint } from '../gateway/socket-connection.js';
import { refusingOwnEndpoint } from '../gateway/own-endpoint-guard.js';
import { refusingPlainCredentials } from '../gateway/plain-credential-guard.js';
import { ProcessSlots } from '../gateway/process-slots.js';
import { ServerInstructions } from '../gateway/server-instructions.js';
import { instructionsFile } from './instructions-file.js';
import { ServerStates } from '../gateway/server-states.js';
import { ToolPins } from '../gateway/tool-pins.js';
import { sharedRotatingFile } from '../observability/rotating-file.js';
import { createRepositories } from '../store/index.js';
import { readConfig, type ConfigStores } from '../domain/config-store.js';
import { createSearchPath } from '../upstream/login-shell-path.js';
import { sweepOrphans } from '../upstream/orphan-sweep.js';
import { findCommand, isDirectory, isFile } from '../config/command-lookup.js';
import { SdkUpstreamConnector } from '../upstream/upstream-connector.js';
import { daemonAgentSetup } from './agent-setup-loader.js';
import { tokensEqual } from './access-guard.js';
import { trackProcesses } from './process-records.js';
import { RegistrySnapshot } from './registry-snapshot.js';
import { ActivityWriter, activitySettingsFromEnv, readYourWrites } from './activity-writer.js';
import { GuardedActivity } from './guarded-activity.js';
import { guardedFailureLog } from './guarded-failure-log.js';
import { guardedUpstreamLog } from './guarded-upstream-log.js';
import type { CreateServices } from './daemon-services.js';
import { EventBus } from './event-bus.js';
import { handleOAuthCallback } from './oauth-callback.js';
import { createOAuthServices } from './oauth-services.js';
import { createDoctor } from './doctor.js';
import { secretGuarding } from './secret-guarding.js';
import { portRangeFromEnv } from './port-range.js';
import { ConfigSnapshot } from './config-snapshot.js';
import { pinSnapshotOf, pinsFollow } from './pin-snapshot.js';
import { openStore, restoreSnapshot } from './store-recovery.js';
import { codeStampOf } from './code-stamp.js';
import { daemonStatus } from './daemon-status.js';

/**
 * The composition root: store → upstream connector → gateway → API. The only place
 * that knows every implementation; each layer sees only the ports it needs.
 */
export const createServices: CreateServices = async ({
  paths,
  logger,
  port,
  token,
  settings,
  startedAt,
}) => {
  const clock = systemClock;
  // This module's file: in the bundle, the daemon's own chunk, renamed by every build.
  const code = codeStampOf(fileURLToPath(import.meta.url));
  // The login shell's PATH, asked only when a command is not on the inherited one.
  const searchPath = createSearchPath(process.env, process.platform);
  const opened = await openStore({ paths, now: () => clock.now(), logger });
  const store = opened.store;
  const stored = createRepositories(store, clock);
  // No path may register this daemon as its own upstream (an agent's HTTP entry for Coffer).
  const servers = refusingPlainCredentials(refusingOwnEndpoint(stored.servers, port));
  const repositories = { ...stored, servers };
  const activity = new ActivityWriter({
    ...activitySettingsFromEnv(),
    repository: repositories.activity,
    clock,
    logger,
  });
  await activity.start();
  // The OAuth clients given by hand are in the snapshot as in an export (set below).
  let oauthClients: ConfigStores['oauth'] = undefined;
  const snapshot = new ConfigSnapshot({
    path: paths.configSnapshot,
    read: () => readConfig({ ...repositories, oauth: oauthClients }),
    logger,
  });
  const pinSnapshot = new ConfigSnapshot({
    path: paths.pinSnapshot,
    read: () => pinSnapshotOf(repositories.pins),
    logger,
  });
  const events = new EventBus(logger, (event) => {
    if (ConfigSnapshot.follows(event)) snapshot.changed();
    if (pinsFollow(event)) pinSnapshot.changed();
  });
  // Every recorded call or admin action also goes to live UIs (the Activity page).
  const recorder: ActivitySink = {
    record: (entry) => {
      activity.record(entry);
      events.emit({ type: 'activity.recorded', entry });
    },
  };
  const restored =
    opened.restore === undefined
      ? undefined
      : await restoreSnapshot(opened.restore, {
          // Unguarded: what the damaged file held, as it held it (a plain credential stored
          // before the guard was there too, which the doctor then points at).
          stores: stored,
          pins: stored.pins,
          activity: recorder,
          clock,
          logger,
        });
  // One backend choice (keychain or file) for secrets and OAuth credentials alike.
  const credentials = backendSelector({ paths, logger });
  const registry = new RegistrySnapshot(repositories.servers);
  const guarding = secretGuarding(
    secretStoreOn(credentials),
    oauthCredentialStoreOn(credentials),
    () => registry.all(),
    settings.blockCredentials,
  );
  const { guard, secrets } = guarding;
  // What the rest records: a client's words (names, clientInfo) cleared of stored secrets.
  const audited = new GuardedActivity({ sink: recorder, guard, logger });
  const states = new ServerStates(clock, (server, status) =>
    events.emit({ type: 'server.state', server, status }),
  );
  let signedIn = (_server: string): void => {};
  const oauth = createOAuthServices({
    // Through the guard's wrapper: saved or forgotten tokens make it read them again.
    store: guarding.oauth,
    servers: repositories.servers,
    states,
    activity: audited,
    clock,
    logger,
    port,
    portRange: portRangeFromEnv(),
    refreshSkewMs: settings.oauthRefreshSkewMs,
    clientMetadataUrl: settings.oauthClientMetadataUrl,
    onSignedIn: (server) => signedIn(server),
  });
  oauthClients = oauth.signIn;
  const version = packageVersion();
  // Before any upstream starts: end what a killed predecessor left running.
  await sweepOrphans(repositories.upstreamProcesses, logger);
  const connector = new SdkUpstreamConnector({
    clientInfo: { name: 'coffer', version },
    requestTimeoutMs: settings.requestTimeoutMs,
    connectTimeoutMs: settings.connectTimeoutMs,
    ...(settings.maxTotalTimeoutMs === undefined
      ? {}
      : { maxTotalTimeoutMs: settings.maxTotalTimeoutMs }),
    stderrLogPath: (server) => upstreamLogPath(paths, server),
    resolveSecrets: createSecretResolver(secrets),
    processes: trackProcesses(repositories.upstreamProcesses, logger),
    authProvider: oauth.authProvider,
    searchPath: (command) => searchPath.forCommand(command),
  });

  await registry.all();
  const processSlots = new ProcessSlots(settings.maxProcessesPerServer);

  // A recorded definition change makes every session relist that server, and a policy an
  // approval stored makes them read policies again (both set below, once the gateway is).
  let pinChanged = (_server: string): void => {};
  let policyChanged = (_server: string): void => {};
  const pins = new ToolPins({
    repository: repositories.pins,
    activity: audited,
    clock,
    onChanged: (server) => pinChanged(server),
    onPinned: () => pinSnapshot.changed(),
  });
  const gateway = new Gateway({
    serverInfo: { name: 'coffer', version },
    connector,
    preferences: repositories.preferences,
    policies: repositories.policies,
    pins,
    secretGuard: guard,
    activity: audited,
    states,
    clock,
    logger,
    listTtlMs: settings.listTtlMs,
    listTimeoutMs: settings.listTimeoutMs,
    toolsMode: settings.toolsMode,
    enabledServers: (only) => registry.enabled(only),
    isDisabled: async (server) =>
      (await registry.all()).some(({ name, enabled }) => name === server && !enabled),
    upstreamLog: guardedUpstreamLog(guard, clock, (server, line) =>
      sharedRotatingFile(upstreamLogPath(paths, server)).write(line),
    ),
    logFailure: guardedFailureLog(logger, guard),
    processSlots,
    policyChanged: (server) => policyChanged(server),
    instructions: new ServerInstructions(instructionsFile(paths.serverInstructions, logger)),
    sessionIdleMs: settings.sessionIdleMs,
    maxSessions: settings.maxSessions,
    sessionGraceMs: settings.sessionGraceMs,
    ...(settings.resultBudgetTokens === undefined
      ? {}
      : {
          resultLimit: { budgetTokens: settings.resultBudgetTokens, ttlMs: settings.resultTtlMs },
        }),
  });
  const catalog = new AdminCatalog({
    servers: repositories.servers,
    preferences: repositories.preferences,
    connector,
    states,
    gateway,
    listTimeoutMs: settings.listTimeoutMs,
    processSlots,
    activity: audited,
    clock,
    pins,
    secretGuard: guard,
    onListsChanged: (server) => events.emit({ type: 'server.changed', server }),
  });
  pinChanged = (server) => {
    pinSnapshot.changed();
    gateway.capabilitiesChanged(server);
    events.emit({ type: 'server.changed', server });
  };
  policyChanged = (server) => {
    gateway.capabilitiesChanged(server);
    events.emit({ type: 'server.changed', server });
  };
  // The refresh tells the UI too, whose server page then lists again: what it listed
  // before the sign-in was refused, and that refusal would stay until a Refresh.
  signedIn = (server) => {
    catalog
      .refresh(server)
      .catch((error: unknown) =>
        logger.warn({ err: error, server }, 'refresh after sign-in failed'),
      );
  };
  const toolSearch = new AdminToolSearch({
    servers: () => registry.enabled(),
    tools: (name) => catalog.tools(name),
  });
  const notifier: SessionNotifier = {
    capabilitiesChanged: (server) => gateway.capabilitiesChanged(server),
    serversChanged: () => {
      registry.invalidate();
      guard.invalidate();
      gateway.serversChanged();
    },
  };
  const agentSetup = daemonAgentSetup(paths.home, port);
  const api = createApiApp({
    ...repositories,
    ownPort: port,
    activity: readYourWrites(
      { flush: () => audited.settled().then(() => activity.flush()) },
      repositories.activity,
    ),
    catalog,
    notifier,
    clock,
    logger,
    audit: audited,
    secrets,
    events,
    toolSearch,
    tools: catalog,
    budget: contextBudgetReader({
      servers: () => registry.enabled(),
      tools: (name) => catalog.tools(name),
    }),
    oauth: oauth.signIn,
    doctor: createDoctor({
      servers: repositories.servers,
      states,
      secrets,
      searchPath: () => searchPath.merged(),
      files: { directoryExists: isDirectory, fileExists: isFile },
      findCommand: (command, path, cwd) =>
        findCommand(command, {
          platform: process.platform,
          searchPath: path,
          pathExt: process.env['PATHEXT'],
          ...(cwd === undefined ? {} : { cwd }),
        }),
      daemon: { pid: process.pid, port, startedAt },
      versions: { coffer: version, node: process.version },
      platform: process.platform,
      heldTools: async (server) => [...(await pins.waiting(server))],
      restored: () =>
        restored !== undefined && existsSync(restored.damagedPath) ? restored : undefined,
      snapshotFailure: () => snapshot.lastFailure() ?? pinSnapshot.lastFailure(),
      codeReplaced: () => code.replaced(),
      agents: () =>
        agentSetup.doctor({ port, token }).catch((error: unknown) => {
          // The report goes out without them; the Doctor page points here for why.
          logger.warn({ err: error }, "the doctor could not check the agents' files");
          throw error;
        }),
    }),
    agents: agentSetup,
  });

  // What the next damaged start restores from: now (not awaited: serving need not wait
  // for it, and a flush never fails), then after each change.
  void snapshot.flush();
  void pinSnapshot.flush();
  let closing = false;
  return {
    handleMcp: createMcpEndpoint(gateway),
    handleSocket: createSocketEndpoint({
      gateway,
      tokenMatches: (given) => tokensEqual(given, token),
      accepting: () => !closing,
      logger,
    }),
    handleOAuthCallback: handleOAuthCallback(oauth.signIn, logger),
    api,
    status: daemonStatus({
      settings,
      registry,
      states,
      sessions: () => gateway.size,
      codeReplaced: () => code.replaced(),
    }),
    close: async () => {
      closing = true;
      events.close();
      await gateway.closeAll();
      await catalog.close();
      await audited.settled();
      await activity.close();
      await snapshot.flush();
      await pinSnapshot.flush();
      await store.close();
    },
  };
};
