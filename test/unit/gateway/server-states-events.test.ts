import { describe, expect, it } from 'vitest';
import { CofferError } from '../../../src/domain/errors.js';
import type { ServerStatus } from '../../../src/domain/ports.js';
import { ServerStates } from '../../../src/gateway/server-states.js';

const clock = { now: () => new Date('2026-01-01T00:00:00Z') };

describe('server states: change hook (live UI updates)', () => {
  it('reports each visible change once, and nothing when nothing changed', () => {
    const changes: [string, ServerStatus['state']][] = [];
    const states = new ServerStates(clock, (server, status) =>
      changes.push([server, status.state]),
    );
    states.connected('files');
    states.listed('files', 'tool', 3);
    states.listed('files', 'tool', 3);
    states.failed('files', new CofferError('UPSTREAM_UNAVAILABLE', 'gone'));
    states.disconnected('files');
    states.forget('files');
    states.forget('files');
    expect(changes).toEqual([
      ['files', 'running'],
      ['files', 'running'],
      ['files', 'error'],
      // disconnected: still in error, and the live count is not shown, so no news.
      ['files', 'idle'],
    ]);
  });

  it('counts each kind once listed, and leaves a kind not listed yet unknown, not 0', () => {
    const states = new ServerStates(clock);
    // An agent that lists its tools only (most do, first): prompts and resources unknown.
    states.listed('everything', 'tool', 13);
    expect(states.status('everything').counts).toEqual({ tools: 13 });
    states.listed('everything', 'resource_template', 2);
    states.listed('everything', 'resource', 7);
    expect(states.status('everything').counts).toEqual({
      tools: 13,
      resources: 7,
      resource_templates: 2,
    });
    states.listed('everything', 'prompt', 0);
    expect(states.status('everything').counts).toMatchObject({ prompts: 0 });
  });

  it('works without a hook', () => {
    const states = new ServerStates(clock);
    states.connected('files');
    expect(states.status('files').state).toBe('running');
  });
});
