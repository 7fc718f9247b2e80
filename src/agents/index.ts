/**
 * Agent setup: where each agent keeps its MCP servers, importing them into Coffer and
 * installing Coffer's shim in their place, with backups and exact undo. This layer
 * edits files only; talking to the daemon is the CLI's job.
 */
export * from './types.js';
export { agentCatalog, findAgent } from './catalog/index.js';
export { agentContextFrom } from './platform-paths.js';
export { chooseLocation, describeLocation, fileLocation } from './locations.js';
export {
  agentStatuses,
  agentStatus,
  type AgentStatus,
  type LocationStatus,
} from './agent-status.js';
export {
  loadConfig,
  requireConfig,
  describeProblem,
  malformedError,
} from './documents/load-document.js';
export { readSnippet, type Snippet } from './documents/snippet.js';
export {
  planImport,
  type ImportItem,
  type ImportOptions,
  type SecretToStore,
} from './import-plan.js';
export { planInstall, planChanges, COFFER_ENTRY, type InstallPlan } from './install-plan.js';
export { readInstallPlan, type InstallTarget } from './install-plan-reader.js';
export { narrowerCofferEntries, type NarrowerEntry } from './narrower-entries.js';
export { applyInstall } from './install-apply.js';
export { recordImports, importedFrom, type ImportedItem } from './import-records.js';
export {
  planUninstall,
  applyUninstall,
  uninstallChanges,
  type UninstallPlan,
} from './uninstall.js';
export { planRestore, applyRestore, type RestorePlan } from './restore.js';
export { listBackups, type BackupInfo } from './backups.js';
export { readState, updateState, isAt, type ImportRecord } from './agent-state.js';
export { brokenShims, checkShims, shimKey, type ShimCheck } from './shim-check.js';
export { agentDoctor, type AgentDoctorReport } from './agent-doctor.js';
export { staleTokenEntries, type StaleTokenEntry } from './stale-tokens.js';
export { installSummary, restoreSummary, uninstallSummary } from './change-summary.js';
export { shimLaunch } from './shim-launch.js';
export { createAgentSetup, type AgentSetupOptions, type SyncAgentSetup } from './agent-setup.js';
export { leftToImport, locationFields } from './agent-view.js';
