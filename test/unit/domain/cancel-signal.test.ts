import { describe, expect, it } from 'vitest';
import { Cancellation, NEVER_CANCELLED } from '../../../src/domain/cancel-signal.js';

describe('Cancellation', () => {
  it('runs each listener once, with the reason, in the order they were added', () => {
    const cancellation = new Cancellation();
    const heard: string[] = [];
    cancellation.onAbort((reason) => heard.push(`first ${String(reason)}`));
    cancellation.onAbort((reason) => heard.push(`second ${String(reason)}`));
    expect(cancellation.aborted).toBe(false);
    cancellation.abort('user');
    cancellation.abort('again');
    expect(cancellation.aborted).toBe(true);
    expect(cancellation.reason).toBe('user');
    expect(heard).toEqual(['first user', 'second user']);
  });

  it('runs no listener that was removed, and removing twice changes nothing', () => {
    const cancellation = new Cancellation();
    const heard: string[] = [];
    const stop = cancellation.onAbort(() => heard.push('removed'));
    cancellation.onAbort(() => heard.push('kept'));
    stop();
    stop();
    cancellation.abort();
    expect(heard).toEqual(['kept']);
  });

  it('gives an AbortError as the reason when aborted without one, as AbortController does', () => {
    const cancellation = new Cancellation();
    let heard: unknown;
    cancellation.onAbort((reason) => (heard = reason));
    cancellation.abort();
    expect(cancellation.reason).toBeInstanceOf(DOMException);
    expect(cancellation.reason).toMatchObject({ name: 'AbortError' });
    expect(heard).toBe(cancellation.reason);
  });

  it('never runs a listener added after the abort (callers check `aborted` first)', () => {
    const cancellation = new Cancellation();
    cancellation.abort('done');
    const heard: unknown[] = [];
    const stop = cancellation.onAbort((reason) => heard.push(reason));
    stop();
    expect(heard).toEqual([]);
  });

  it('lets a listener remove another one while the abort runs', () => {
    const cancellation = new Cancellation();
    const heard: string[] = [];
    const stops: (() => void)[] = [];
    stops.push(cancellation.onAbort(() => (heard.push('a'), stops[1]?.())));
    stops.push(cancellation.onAbort(() => heard.push('b')));
    cancellation.abort();
    // As with AbortSignal: a listener removed before its turn does not run.
    expect(heard).toEqual(['a']);
  });
});

describe('NEVER_CANCELLED', () => {
  it('is not aborted and takes listeners it never runs', () => {
    const stop = NEVER_CANCELLED.onAbort(() => {
      throw new Error('must not run');
    });
    stop();
    expect(NEVER_CANCELLED.aborted).toBe(false);
    expect(NEVER_CANCELLED.reason).toBeUndefined();
  });
});
