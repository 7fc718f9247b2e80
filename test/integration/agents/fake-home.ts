import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { agentContextFrom } from '../../../src/agents/platform-paths.js';
import type { AgentContext, Platform } from '../../../src/agents/types.js';

/**
 * A temporary home laid out like one platform's: HOME (or USERPROFILE and APPDATA on
 * Windows), a project directory, and Coffer's own home. Nothing touches the real home.
 */
export interface FakeHome {
  readonly root: string;
  readonly context: AgentContext;
  readonly cofferHome: string;
  cleanup(): void;
}

export function fakeHome(platform: Platform, extraEnv: Record<string, string> = {}): FakeHome {
  const root = mkdtempSync(join(tmpdir(), `coffer-agents-${platform}-`));
  const home = join(root, 'home');
  const project = join(root, 'project');
  mkdirSync(home, { recursive: true });
  mkdirSync(project, { recursive: true });
  const env: Record<string, string> =
    platform === 'win32'
      ? { USERPROFILE: home, APPDATA: join(home, 'AppData', 'Roaming') }
      : { HOME: home };
  return {
    root,
    context: agentContextFrom({ ...env, ...extraEnv }, platform, project),
    cofferHome: join(root, 'coffer'),
    cleanup: () => rmSync(root, { recursive: true, force: true }),
  };
}

export const platforms: readonly Platform[] = ['darwin', 'linux', 'win32'];
