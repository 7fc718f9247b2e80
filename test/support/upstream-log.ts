import { readFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * What one upstream wrote to stderr so far, as the daemon keeps it (logs/upstream-<name>.log,
 * the live file only). Lets a test wait until an upstream has really started a call, e.g. the
 * fixture's `hang: request … waits for cancellation`, instead of sleeping and hoping.
 */
export function upstreamLog(home: string, server: string): string {
  try {
    return readFileSync(join(home, 'logs', `upstream-${server}.log`), 'utf8');
  } catch {
    return '';
  }
}

/** How many times `text` occurs in that log. */
export function upstreamLogCount(home: string, server: string, text: string): number {
  return upstreamLog(home, server).split(text).length - 1;
}
