import pc from 'picocolors';
import { describe, expect, it } from 'vitest';
import { renderActivityLine, type ActivityRow } from '../../../src/cli/render/activity-lines.js';

const plain = pc.createColors(false);

const row = (fields: Partial<ActivityRow>): ActivityRow => ({
  id: 1,
  at: '2026-12-06T10:15:57.000Z',
  trace_id: null,
  session_id: null,
  client_name: null,
  client_version: null,
  server: 'everything',
  capability_type: 'tool',
  capability_key: 'echo',
  action: 'tools/call',
  duration_ms: 361,
  outcome: 'ok',
  error_code: null,
  ...fields,
});

describe('coffer activity lines', () => {
  it('lines a call and an admin action up under each other, however long the action', () => {
    const lines = [
      row({ client_name: 't', client_version: '1' }),
      row({ capability_type: 'admin', capability_key: 'tool:echo', action: 'capability.disable' }),
      row({ action: 'server.refresh', capability_key: null, duration_ms: null }),
    ].map((each) => renderActivityLine(each, plain));
    const serverAt = lines.map((line) => line.indexOf('everything'));
    expect(new Set(serverAt).size, lines.join('')).toBe(1);
  });

  it('says the error code of a refused call, and what the guard did', () => {
    const line = renderActivityLine(
      row({ outcome: 'error', error_code: 'TOOL_DISABLED', guard: 'secret_blocked' }),
      plain,
    );
    expect(line).toMatch(/echo\s+361 ms {2}error TOOL_DISABLED {2}guard: secret_blocked\n$/);
  });
});
