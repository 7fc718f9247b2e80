import { describe, expect, it } from 'vitest';
import { pinsFollow } from '../../../src/daemon/pin-snapshot.js';
import { adminEntry } from '../../../src/domain/admin-entry.js';
import type { ActivityEntry } from '../../../src/domain/ports.js';

const admin = adminEntry({
  at: '2026-12-07T10:00:00.000Z',
  server: 'web',
  action: 'tool.accept',
  key: 'fetch',
  errorCode: null,
  client: { name: 'coffer-cli', version: null },
});
const call: ActivityEntry = { ...admin, capability_type: 'tool', action: 'tools/call' };

describe('which daemon events the pin snapshot follows', () => {
  it('follows removals and admin actions (a review accepted, a server redefined)', () => {
    expect(pinsFollow({ type: 'server.removed', server: 'web' })).toBe(true);
    expect(pinsFollow({ type: 'activity.recorded', entry: admin })).toBe(true);
  });

  it('leaves lists that changed, calls and state changes to the hooks of ToolPins', () => {
    expect(pinsFollow({ type: 'server.changed', server: 'web' })).toBe(false);
    expect(pinsFollow({ type: 'server.added', server: 'web' })).toBe(false);
    expect(pinsFollow({ type: 'activity.recorded', entry: call })).toBe(false);
    const status = { state: 'running', last_error: null, counts: null } as const;
    expect(pinsFollow({ type: 'server.state', server: 'web', status })).toBe(false);
  });
});
