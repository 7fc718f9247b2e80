import { describe, expect, it } from 'vitest';
import { CofferError } from '../../../src/domain/errors.js';
import { ServerStates } from '../../../src/gateway/server-states.js';

const clock = { now: () => new Date('2026-01-01T00:00:00Z') };

describe("a server's last error says what to do", () => {
  it("keeps the error's hint beside its code and message", () => {
    const states = new ServerStates(clock);
    const hint = 'use an absolute path, or check PATH';
    states.failed(
      'files',
      new CofferError('UPSTREAM_UNAVAILABLE', 'command not found: mcp-files', { hint }),
    );
    expect(states.status('files').last_error).toEqual({
      code: 'UPSTREAM_UNAVAILABLE',
      message: 'command not found: mcp-files',
      hint,
      at: '2026-01-01T00:00:00.000Z',
    });
  });

  it('has no hint when the error has none, and points at the log after a crash', () => {
    const states = new ServerStates(clock);
    states.failed('files', new CofferError('UPSTREAM_TIMEOUT', 'did not list in time'));
    expect(states.status('files').last_error).not.toHaveProperty('hint');
    states.connected('files');
    states.disconnected('files', true);
    expect(states.status('files').last_error).toMatchObject({
      message: 'Upstream "files" exited unexpectedly',
      hint: 'read why in its log: coffer logs --upstream files',
    });
  });
});
