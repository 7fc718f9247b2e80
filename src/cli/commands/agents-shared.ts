import { realpathSync } from 'node:fs';
import {
  agentContextFrom,
  scopes,
  type AgentContext,
  type Scope,
  type ShimLaunch,
} from '../../agents/index.js';
import { resolveHome } from '../../config/home.js';
import { defaultBinaryPath } from '../../discovery/package-info.js';
import { CofferError } from '../../domain/errors.js';
import type { CliContext } from '../cli-context.js';

/** What the `coffer agents …` commands share: the machine's context, scopes, the shim launch. */

export function agentContext(context: CliContext): AgentContext {
  return agentContextFrom(context.env, process.platform, process.cwd());
}

export function parseScope(value: string): Scope {
  if ((scopes as readonly string[]).includes(value)) return value as Scope;
  throw new CofferError('INVALID_INPUT', `Unknown scope "${value}"`, {
    hint: `use one of: ${scopes.join(', ')}`,
  });
}

function realPath(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    return path;
  }
}

/**
 * Absolute paths to this Node and this checkout's bin/coffer.js: GUI apps (Claude
 * Desktop, Cursor) start servers without the user's shell PATH. COFFER_HOME is passed
 * on only when it is set, so a default install keeps the default home.
 */
export function shimLaunch(env: NodeJS.ProcessEnv): ShimLaunch {
  const home = env['COFFER_HOME'];
  return {
    command: process.execPath,
    args: [realPath(defaultBinaryPath()), 'shim'],
    ...(home === undefined || home === '' ? {} : { env: { COFFER_HOME: resolveHome(env) } }),
  };
}

export function writeJson(context: CliContext, value: unknown): void {
  context.stdout.write(`${JSON.stringify(value, null, 2)}\n`);
}
