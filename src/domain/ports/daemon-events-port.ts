/** Daemon events (implemented by src/daemon/event-bus.ts), streamed to the UI. */
import type { CapabilityType } from '../capability.js';
import type { ServerStatus } from './catalog-ports.js';
import type { ActivityEntry } from './store-ports.js';

/**
 * What changed in the daemon, pushed to the web UI over server-sent events so it never
 * has to poll. Names only and states, never a definition or a secret: a listener that
 * needs details asks the API.
 */
export type DaemonEvent =
  | { readonly type: 'server.added' | 'server.removed' | 'server.changed'; readonly server: string }
  | {
      readonly type: 'capability.toggled';
      readonly server: string;
      readonly capability_type: CapabilityType;
      readonly keys: readonly string[];
      readonly enabled: boolean;
    }
  | { readonly type: 'server.state'; readonly server: string; readonly status: ServerStatus }
  | { readonly type: 'activity.recorded'; readonly entry: ActivityEntry };

export type DaemonEventListener = (event: DaemonEvent) => void;

export interface DaemonEvents {
  /** Never throws nor waits: a slow or failing listener must not slow the emitter. */
  emit(event: DaemonEvent): void;
  /** Returns the unsubscribe function. `onClose` runs when the daemon shuts down. */
  subscribe(listener: DaemonEventListener, onClose?: () => void): () => void;
}
