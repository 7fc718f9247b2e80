/**
 * Ports: the small interfaces the inner layers need and the outer layers implement.
 * The daemon (composition root) wires the implementations: the store implements the
 * repositories, src/upstream implements UpstreamConnector, the gateway implements
 * SessionNotifier. Layers above the domain depend on these, never on each other.
 */
export interface Clock {
  now(): Date;
}

export const systemClock: Clock = { now: () => new Date() };

/** Runs `work` after `ms`; returns what cancels it. Tests pass one they run by hand. */
export type Schedule = (work: () => void, ms: number) => () => void;

/** Timers that never keep the process alive on their own. */
export const systemSchedule: Schedule = (work, ms) => {
  const timer = setTimeout(work, ms);
  timer.unref();
  return () => clearTimeout(timer);
};

export * from './ports/store-ports.js';
export * from './ports/upstream-port.js';
export * from './ports/catalog-ports.js';
export * from './ports/tool-search-port.js';
export * from './ports/secret-store-port.js';
export * from './ports/daemon-events-port.js';
export * from './ports/oauth-port.js';
export * from './ports/doctor-port.js';
export * from './ports/agent-setup-port.js';
