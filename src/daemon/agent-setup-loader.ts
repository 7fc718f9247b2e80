import type { AgentSetup } from '../domain/ports.js';
import type { SyncAgentSetup } from '../agents/index.js';
import { defaultBinaryPath } from '../discovery/package-info.js';
import { CofferError } from '../domain/errors.js';

/**
 * The agent layer for the API, loaded on first use: its file parsers (jsonc-parser,
 * toml-edit-js with its WebAssembly) would otherwise load with every daemon, though
 * most never edit an agent config (docs/PERFORMANCE.md: start-up and resident memory).
 */
export function lazyAgentSetup(load: () => Promise<SyncAgentSetup>): AgentSetup {
  let loading: Promise<SyncAgentSetup> | undefined;
  const setup = () => (loading ??= load().catch(whyNotLoaded));
  return {
    list: async (...args) => (await setup()).list(...args),
    doctor: async (...args) => (await setup()).doctor(...args),
    preview: async (...args) => (await setup()).preview(...args),
    apply: async (...args) => (await setup()).apply(...args),
    planImport: async (...args) => (await setup()).planImport(...args),
    recordImports: async (...args) => (await setup()).recordImports(...args),
  };
}

/** The daemon's agent setup: for the user's home and agents, shims that reach this port. */
export function daemonAgentSetup(cofferHome: string, ownPort: number): AgentSetup {
  return lazyAgentSetup(async () => {
    const agents = await import('../agents/index.js');
    return agents.createAgentSetup({
      cofferHome,
      context: agents.agentContextFrom(process.env),
      launch: agents.shimLaunch(process.env, defaultBinaryPath()),
      ownPort,
    });
  });
}

/**
 * Loading late has one way to fail that loading at start has not: Coffer updated (or
 * rebuilt) while this daemon runs replaces the files it would load, whose names change
 * with every build. Said so, with the restart that fixes it, instead of an internal error.
 */
function whyNotLoaded(error: unknown): never {
  if ((error as NodeJS.ErrnoException | undefined)?.code !== 'ERR_MODULE_NOT_FOUND') throw error;
  throw new CofferError(
    'DAEMON_UNAVAILABLE',
    'This Coffer daemon cannot load its agent setup: Coffer was updated or rebuilt since it started, and the files it was started from are gone',
    {
      hint: 'restart it with `coffer stop`: the next coffer command, or an agent, starts the new one',
      cause: error,
    },
  );
}
