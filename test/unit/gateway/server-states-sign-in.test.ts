import { describe, expect, it } from 'vitest';
import { CofferError } from '../../../src/domain/errors.js';
import { ServerStates } from '../../../src/gateway/server-states.js';

const clock = { now: () => new Date('2026-01-01T00:00:00Z') };
const authRequired = new CofferError(
  'AUTH_REQUIRED',
  'Server "linear" needs you to sign in: run `coffer mcp login linear`',
);

describe('the needs-sign-in state', () => {
  it('follows an AUTH_REQUIRED and outranks a live connection', () => {
    const changes: string[] = [];
    const states = new ServerStates(clock, (server, status) =>
      changes.push(`${server}:${status.state}`),
    );
    states.connected('linear');
    states.failed('linear', authRequired);
    expect(states.status('linear')).toMatchObject({
      state: 'needs-sign-in',
      last_error: { code: 'AUTH_REQUIRED' },
    });
    states.connected('linear');
    expect(states.status('linear').state).toBe('needs-sign-in');
    expect(changes).toEqual(['linear:running', 'linear:needs-sign-in']);
  });

  it('is cleared by fresh tokens, not by another failure', () => {
    const states = new ServerStates(clock);
    states.failed('linear', authRequired);
    states.failed('linear', new CofferError('UPSTREAM_TIMEOUT', 'slow'));
    expect(states.status('linear').state).toBe('needs-sign-in');
    states.signedIn('linear');
    expect(states.status('linear')).toMatchObject({ state: 'idle', last_error: null });
  });

  it('ignores a failure raised before the latest sign-in and heard of after it', () => {
    const changes: string[] = [];
    const states = new ServerStates(clock, (server, status) =>
      changes.push(`${server}:${status.state}`),
    );
    // The provider reports the failure as it raises it; a list that was loading
    // meanwhile reports the same failure again once the user has signed in.
    const raised = new CofferError('AUTH_REQUIRED', 'Server "linear" needs you to sign in');
    states.failed('linear', raised);
    states.signedIn('linear');
    states.failed('linear', raised);
    expect(states.status('linear')).toMatchObject({ state: 'idle', last_error: null });
    expect(changes).toEqual(['linear:needs-sign-in', 'linear:idle']);
    // A refusal raised after the sign-in is news.
    states.failed('linear', new CofferError('AUTH_REQUIRED', 'refused again'));
    expect(states.status('linear').state).toBe('needs-sign-in');
  });

  it('ignores a refusal met by a list that began before the latest sign-in', () => {
    const states = new ServerStates(clock);
    states.failed('linear', authRequired);
    // A list starts without tokens; the user signs in while it waits on the server, and
    // its refusal arrives after the sign-in as an error of its own (a refused refresh).
    const before = states.listing();
    states.signedIn('linear');
    const after = states.listing();
    states.failed('linear', new CofferError('AUTH_REQUIRED', 'refused'), before);
    expect(states.status('linear')).toMatchObject({ state: 'idle', last_error: null });
    // A list that began after the sign-in and is refused is news.
    states.failed('linear', new CofferError('AUTH_REQUIRED', 'refused again'), after);
    expect(states.status('linear').state).toBe('needs-sign-in');
  });

  it('counts a sign-in of another server as no answer', () => {
    const states = new ServerStates(clock);
    const raised = new CofferError('AUTH_REQUIRED', 'Server "linear" needs you to sign in');
    states.failed('linear', raised);
    states.failed('github', authRequired);
    states.signedIn('github');
    states.failed('linear', raised);
    expect(states.status('linear').state).toBe('needs-sign-in');
  });
});
