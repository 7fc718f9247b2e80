import {
  agentContextFrom,
  shimLaunch as launchShim,
  scopes,
  type AgentContext,
  type Scope,
  type ShimLaunch,
} from '../../agents/index.js';
import { processFolder } from '../../agents/launch-folder.js';
import { defaultBinaryPath } from '../../discovery/package-info.js';
import { CofferError } from '../../domain/errors.js';
import type { KnownServer } from '../../domain/same-launch.js';
import type { ApiClient, CliContext } from '../cli-context.js';

/** What the `coffer agents …` commands share: the machine's context, scopes, the shim launch. */

export function agentContext(context: CliContext): AgentContext {
  const cwd = processFolder();
  if (cwd === undefined)
    throw new CofferError('INVALID_INPUT', 'The current folder no longer exists', {
      hint: "cd to a folder that exists and run the command again: a project's own files are read from the current folder",
    });
  return agentContextFrom(context.env, process.platform, cwd);
}

export function parseScope(value: string): Scope {
  if ((scopes as readonly string[]).includes(value)) return value as Scope;
  throw new CofferError('INVALID_INPUT', `Unknown scope "${value}"`, {
    hint: `use one of: ${scopes.join(', ')}`,
  });
}

/** The shim entry this checkout writes (see src/agents/shim-launch.ts). */
export function shimLaunch(env: NodeJS.ProcessEnv): ShimLaunch {
  return launchShim(env, defaultBinaryPath());
}

export function writeJson(context: CliContext, value: unknown): void {
  context.stdout.write(`${JSON.stringify(value, null, 2)}\n`);
}

/** The servers Coffer has, as imports compare an agent's entries with them. */
export async function knownServers(api: ApiClient): Promise<KnownServer[]> {
  return (await api.get<{ servers: KnownServer[] }>('/servers')).servers;
}
