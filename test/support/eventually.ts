import { vi } from 'vitest';

/**
 * vi.waitFor with room for a loaded machine: returns as soon as `check` passes, and gives up
 * only after `timeoutMs`. Its 1 s default (and the 10 s this used to allow) is shorter than a
 * busy 2-core box can take to start or end a child process, which made process tests flaky.
 * Every caller runs in a project whose test timeout is longer than this default.
 */
export function eventually<T>(check: () => T | Promise<T>, timeoutMs = 30_000): Promise<T> {
  return vi.waitFor(check, { timeout: timeoutMs, interval: 50 });
}
