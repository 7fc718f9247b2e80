import { homedir } from 'node:os';
import { join } from 'node:path';
import type { AgentContext, Platform } from './types.js';

/**
 * The per-platform base directories agents put their config in. Paths are joined with
 * the host's separator: on a real machine host and platform agree, and tests that fake
 * a Windows home on Linux only need the layout, not backslashes.
 */

function nonEmpty(value: string | undefined): string | undefined {
  return value !== undefined && value !== '' ? value : undefined;
}

/** Roaming application data: %APPDATA% on Windows. */
export function appDataDir(context: AgentContext): string {
  return nonEmpty(context.env['APPDATA']) ?? join(context.homeDir, 'AppData', 'Roaming');
}

/** $XDG_CONFIG_HOME, or ~/.config. */
export function xdgConfigDir(context: AgentContext): string {
  return nonEmpty(context.env['XDG_CONFIG_HOME']) ?? join(context.homeDir, '.config');
}

/** Where desktop apps keep their settings: Application Support, %APPDATA% or XDG. */
export function appConfigDir(context: AgentContext): string {
  switch (context.platform) {
    case 'darwin':
      return join(context.homeDir, 'Library', 'Application Support');
    case 'win32':
      return appDataDir(context);
    case 'linux':
      return xdgConfigDir(context);
  }
}

/** VS Code's user directory (profile settings, mcp.json, extension global storage). */
export function vscodeUserDir(context: AgentContext): string {
  return join(appConfigDir(context), 'Code', 'User');
}

export function toPlatform(value: string): Platform {
  if (value === 'darwin' || value === 'win32') return value;
  // Every other Unix lays its config out like Linux (XDG).
  return 'linux';
}

/** The context of this process, read from an environment (tests pass their own). */
export function agentContextFrom(
  env: Readonly<Record<string, string | undefined>>,
  platform: string = process.platform,
  cwd: string = process.cwd(),
): AgentContext {
  const target = toPlatform(platform);
  const home =
    target === 'win32'
      ? (nonEmpty(env['USERPROFILE']) ?? nonEmpty(env['HOME']))
      : (nonEmpty(env['HOME']) ?? nonEmpty(env['USERPROFILE']));
  return { platform: target, homeDir: home ?? homedir(), env, cwd };
}
