import type { AgentSetup } from '../domain/ports.js';
import type { SyncAgentSetup } from '../agents/index.js';

/**
 * The agent layer for the API, loaded on first use: its file parsers (jsonc-parser,
 * toml-edit-js with its WebAssembly) would otherwise load with every daemon, though
 * most never edit an agent config (docs/PERFORMANCE.md: start-up and resident memory).
 */
export function lazyAgentSetup(load: () => Promise<SyncAgentSetup>): AgentSetup {
  let loading: Promise<SyncAgentSetup> | undefined;
  const setup = () => (loading ??= load());
  return {
    list: async (...args) => (await setup()).list(...args),
    doctor: async (...args) => (await setup()).doctor(...args),
    preview: async (...args) => (await setup()).preview(...args),
    apply: async (...args) => (await setup()).apply(...args),
    planImport: async (...args) => (await setup()).planImport(...args),
    recordImports: async (...args) => (await setup()).recordImports(...args),
  };
}
