import { vi } from 'vitest';

/**
 * vi.waitFor with room for a loaded CI machine: its 1 s default is shorter than a busy box
 * takes to start a child process, which made process tests flaky.
 */
export function eventually<T>(check: () => T | Promise<T>, timeoutMs = 10_000): Promise<T> {
  return vi.waitFor(check, { timeout: timeoutMs, interval: 50 });
}
