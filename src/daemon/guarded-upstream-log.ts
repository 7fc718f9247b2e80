import type { Clock, JsonObject } from '../domain/ports.js';
import type { SecretGuard } from '../gateway/secret-guard.js';
import { UNCHECKED_TEXT } from './guarded-activity.js';

/**
 * An upstream's `notifications/message` as a line of logs/upstream-<name>.log, without a
 * stored secret: a server may log the token it was given ("connected with key …") as it
 * may print it on stderr (upstream/stderr-redaction.ts). Its time is when it came; it is
 * written at once when the guard's matcher is built, else once it is.
 */
export function guardedUpstreamLog(
  guard: Pick<SecretGuard, 'withTextRedaction'>,
  clock: Clock,
  write: (server: string, line: string) => void,
): (server: string, params: JsonObject | undefined) => void {
  return (server, params) => {
    const line = JSON.stringify({ time: clock.now().toISOString(), ...params });
    // Unreadable secrets: the line is kept, its message is not (it may hold one).
    const unchecked = JSON.stringify({ time: clock.now().toISOString(), data: UNCHECKED_TEXT });
    guard.withTextRedaction(
      (text) => write(server, `${text(line)}\n`),
      () => unchecked,
    );
  };
}
