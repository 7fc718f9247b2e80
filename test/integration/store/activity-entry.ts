import type { ActivityEntry } from '../../../src/domain/ports.js';

/** An activity row as a relayed tools/call writes it, with `overrides` on top. */
export function activityEntry(overrides: Partial<ActivityEntry> = {}): ActivityEntry {
  return {
    at: '2026-01-01T00:00:00.000Z',
    trace_id: 'trace-1',
    session_id: 'session-1',
    client_name: 'claude-code',
    client_version: '1.0.0',
    server: 'files',
    capability_type: 'tool',
    capability_key: 'read',
    action: 'tools/call',
    duration_ms: 12,
    outcome: 'ok',
    error_code: null,
    guard: null,
    ...overrides,
  };
}
