/**
 * The shim's timers (the hello deadline, the replayed initialize's deadline, the drain
 * bound at stdin EOF), injected so unit tests run them without waiting.
 */
export interface Timers {
  setTimeout(callback: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

export const systemTimers: Timers = {
  setTimeout: (callback, ms) => setTimeout(callback, ms),
  clearTimeout: (handle) => clearTimeout(handle as NodeJS.Timeout),
};
