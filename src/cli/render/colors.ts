import pc from 'picocolors';
import type { Colors } from 'picocolors/types.js';
import type { OutputStream } from '../output.js';

export type { Colors } from 'picocolors/types.js';

/**
 * Colour only on a terminal, and never when NO_COLOR is set (no-color.org) or the
 * output is piped: scripts and tests read plain text.
 */
export function colorsFor(stream: OutputStream, env: NodeJS.ProcessEnv): Colors {
  const noColor = env['NO_COLOR'] !== undefined && env['NO_COLOR'] !== '';
  const forced = env['FORCE_COLOR'] !== undefined && env['FORCE_COLOR'] !== '0';
  return pc.createColors(forced || (stream.isTTY && !noColor));
}
