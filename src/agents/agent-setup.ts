import type {
  AgentChangeKind,
  AgentChangeOptions,
  AgentChangePreview,
  AgentChangeResult,
  AgentImportOptions,
  AgentImportPlan,
  AgentScope,
  AgentSetup,
} from '../domain/ports.js';
import { CofferError } from '../domain/errors.js';
import { agentDoctor } from './agent-doctor.js';
import { agentViews } from './agent-view.js';
import { findAgent } from './catalog/index.js';
import { installSummary, uninstallSummary } from './change-summary.js';
import { requireConfig } from './documents/load-document.js';
import { snippetServers } from './documents/snippet.js';
import { planImport } from './import-plan.js';
import { placeOf } from './launch-folder.js';
import { importedFrom, recordImports } from './import-records.js';
import { applyInstall } from './install-apply.js';
import type { InstallPlan } from './install-plan.js';
import { readInstallPlan } from './install-plan-reader.js';
import { chooseLocation, fileLocation } from './locations.js';
import { maskValues } from './masked-text.js';
import { readIfExists, sha256 } from './safe-files.js';
import type { AgentContext, AgentDefinition, ConfigLocation, ShimLaunch } from './types.js';
import { applyUninstall, planUninstall, type UninstallPlan } from './uninstall.js';

/** The UI's words for --replace: its checkbox (web/src/pages/agents/change-preview.tsx). */
const REPLACE_IN_UI = 'tick "Also remove the servers imported from this file"';

/**
 * The AgentSetup port over this layer, for the daemon's REST API (the UI's Agents page):
 * the same plans and writes as `coffer agents …`, with file texts masked for display.
 */

export interface AgentSetupOptions {
  readonly cofferHome: string;
  readonly context: AgentContext;
  /** The entry install writes (see shim-launch.ts). */
  readonly launch: ShimLaunch;
  /** The daemon's HTTP port: entries that reach it are Coffer over HTTP. */
  readonly ownPort?: number;
}

/** The same refusal as a write racing an agent's own save: nothing is written. */
function changedSincePreview(path: string): CofferError {
  return new CofferError('INVALID_INPUT', `${path} changed since the preview`, {
    hint: 'look at the preview again, then apply it; nothing was written',
  });
}

/** What importing the agent's config at `scope`, or `options.text` in its format, would do. */
function importPlanOf(
  cofferHome: string,
  context: AgentContext,
  target: { readonly id: string; readonly scope: AgentScope },
  importOptions: AgentImportOptions,
): AgentImportPlan {
  const { id, scope } = target;
  const { text, ...options } = importOptions;
  const agent = findAgent(id);
  const rename = options.rename === true;
  if (text !== undefined) {
    const items = planImport(agent, pastedServers(agent, context, text), { ...options, rename });
    return { agent: id, scope, path: null, items };
  }
  const location = chooseLocation(agent, context, scope);
  const { exists, document } = requireConfig(location);
  const servers = exists ? (document.servers(location.serversKey) ?? {}) : {};
  const imported = importedFrom(cofferHome, location);
  const place = placeOf(location, context);
  const items = planImport(agent, servers, { ...options, rename, imported, place });
  return { agent: id, scope, path: location.path, items };
}

/** The servers of text in the agent's format, read as a README's snippet of it. */
function pastedServers(
  agent: AgentDefinition,
  context: AgentContext,
  text: string,
): Readonly<Record<string, unknown>> {
  return snippetServers(fileLocation(agent, context, 'the pasted text'), text) ?? {};
}

/** The port, answered synchronously (the daemon wraps it in its lazy loader). */
export type SyncAgentSetup = {
  readonly [K in keyof AgentSetup]: (
    ...args: Parameters<AgentSetup[K]>
  ) => Awaited<ReturnType<AgentSetup[K]>>;
};

type Planned =
  | { readonly kind: 'install'; readonly plan: InstallPlan }
  | { readonly kind: 'uninstall'; readonly plan: UninstallPlan };

export function createAgentSetup(options: AgentSetupOptions): SyncAgentSetup {
  const { cofferHome, context, launch, ownPort } = options;
  const locate = (id: string, scope: AgentScope): [AgentDefinition, ConfigLocation] => {
    const agent = findAgent(id);
    return [agent, chooseLocation(agent, context, scope)];
  };

  const plan = (
    change: AgentChangeKind,
    agent: AgentDefinition,
    location: ConfigLocation,
    changeOptions: AgentChangeOptions,
  ): Planned => {
    if (change === 'uninstall')
      return { kind: 'uninstall', plan: planUninstall(cofferHome, agent, location) };
    const replace = changeOptions.replace === true;
    const { cofferServers } = changeOptions;
    return {
      kind: 'install',
      plan: readInstallPlan({
        ...{ cofferHome, context, agent, location, launch, replace, ownPort },
        cofferServers,
      }),
    };
  };

  const previewOf = (id: string, scope: AgentScope, planned: Planned): AgentChangePreview => {
    const { location } = planned.plan;
    const current = readIfExists(location.path);
    const [before, after, summary] =
      planned.kind === 'install'
        ? [
            planned.plan.exists ? planned.plan.before : undefined,
            planned.plan.after,
            installSummary(planned.plan, launch, true, REPLACE_IN_UI),
          ]
        : [planned.plan.before, planned.plan.after, uninstallSummary(planned.plan, true)];
    const masked = maskValues(findAgent(id), location, [before, after]);
    return {
      agent: id,
      change: planned.kind,
      scope,
      path: location.path,
      changes: before !== after,
      summary,
      before: masked[0] ?? null,
      after: masked[1] ?? null,
      before_sha256: current === undefined ? null : sha256(current),
    };
  };

  return {
    list: (listOptions) => agentViews(cofferHome, context, listOptions),

    doctor: (daemon) => agentDoctor(context, daemon),

    preview(change, id, scope, changeOptions) {
      const [agent, location] = locate(id, scope);
      return previewOf(id, scope, plan(change, agent, location, changeOptions));
    },

    apply(change, id, scope, changeOptions): AgentChangeResult {
      const [agent, location] = locate(id, scope);
      if (changeOptions.expectedSha256 !== undefined) {
        const current = readIfExists(location.path);
        if ((current === undefined ? null : sha256(current)) !== changeOptions.expectedSha256)
          throw changedSincePreview(location.path);
      }
      const planned = plan(change, agent, location, changeOptions);
      const preview = previewOf(id, scope, planned);
      const backup =
        planned.kind === 'install'
          ? applyInstall(cofferHome, planned.plan).backup
          : applyUninstall(cofferHome, planned.plan);
      return { ...preview, ...(backup === undefined ? {} : { backup_id: backup.id }) };
    },

    planImport: (id, scope, importOptions) =>
      importPlanOf(cofferHome, context, { id, scope }, importOptions),

    recordImports(importPlan, imported) {
      // Pasted text is no agent's file: there is nothing for install --replace to edit.
      if (importPlan.path === null) return;
      const [agent, location] = locate(importPlan.agent, importPlan.scope);
      recordImports(cofferHome, agent, location, imported);
    },
  };
}
