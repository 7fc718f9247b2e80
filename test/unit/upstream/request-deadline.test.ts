import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { RequestDeadline } from '../../../src/upstream/request-deadline.js';

describe('RequestDeadline', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('expires when idle, and progress keeps a request alive', () => {
    const expired: string[] = [];
    const deadline = new RequestDeadline(1_000, undefined, (reason) => expired.push(reason));
    vi.advanceTimersByTime(900);
    deadline.touch();
    vi.advanceTimersByTime(900);
    expect(expired).toEqual([]);
    vi.advanceTimersByTime(100);
    expect(expired).toEqual(['idle']);
  });

  it('expires at the overall cap whatever the progress', () => {
    const expired: string[] = [];
    const deadline = new RequestDeadline(1_000, 2_500, (reason) => expired.push(reason));
    for (let i = 0; i < 5; i++) {
      vi.advanceTimersByTime(600);
      deadline.touch();
    }
    expect(expired).toEqual(['cap']);
  });

  it('expires once: progress arriving after the deadline does not start it again', () => {
    const expired: string[] = [];
    const deadline = new RequestDeadline(1_000, undefined, (reason) => expired.push(reason));
    vi.advanceTimersByTime(1_000);
    deadline.touch();
    vi.advanceTimersByTime(5_000);
    expect(expired).toEqual(['idle']);
  });

  it('does nothing once cleared (the answer arrived)', () => {
    const expired: string[] = [];
    const deadline = new RequestDeadline(1_000, 2_000, (reason) => expired.push(reason));
    deadline.clear();
    vi.advanceTimersByTime(10_000);
    expect(expired).toEqual([]);
  });
});
