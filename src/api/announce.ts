import type { DaemonEvent } from '../domain/ports.js';
import type { ApiServices } from './api-services.js';

/**
 * Tells live UIs what a route just changed. Best effort, like recordAdmin: the change
 * happened, so a failing announcement must not turn the answer into an error.
 */
export function announce(services: ApiServices, event: DaemonEvent): void {
  try {
    services.events?.emit(event);
  } catch {
    // See above.
  }
}
