import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ActivityEntry } from '../../../src/domain/ports.js';
import { parseSince } from '../../../src/domain/time-window.js';
import { createApiFixture, type ApiFixture } from './api-fixture.js';

const MINUTE = 60_000;

function call(at: string, server: string, outcome: 'ok' | 'error' = 'ok'): ActivityEntry {
  return {
    at,
    trace_id: null,
    session_id: 's1',
    client_name: 'claude-code',
    client_version: '2.0',
    server,
    capability_type: 'tool',
    capability_key: 'echo',
    action: 'tools/call',
    duration_ms: 12,
    outcome,
    error_code: outcome === 'ok' ? null : 'UPSTREAM_TIMEOUT',
  };
}

describe('GET /api/v1/activity', () => {
  let api: ApiFixture;
  beforeEach(async () => {
    api = await createApiFixture();
    const now = api.clock.now().getTime();
    const at = (minutesAgo: number) => new Date(now - minutesAgo * MINUTE).toISOString();
    await api.temp.repos.activity.append([
      call(at(180), 'files'),
      call(at(90), 'github', 'error'),
      call(at(45), 'files'),
      call(at(20), 'github'),
      call(at(5), 'files', 'error'),
    ]);
  });
  afterEach(() => api.close());

  it('answers newest first with every recorded field', async () => {
    const { status, json } = await api.call('GET', '/activity');
    expect(status).toBe(200);
    expect(json.activity).toHaveLength(5);
    expect(json.activity[0]).toMatchObject({
      server: 'files',
      client_name: 'claude-code',
      client_version: '2.0',
      duration_ms: 12,
      outcome: 'error',
      error_code: 'UPSTREAM_TIMEOUT',
    });
    expect(json.next_before_id).toBeNull();
  });

  it('filters by server, since (relative or ISO) and outcome', async () => {
    const servers = await api.call('GET', '/activity?server=github');
    expect((servers.json.activity as ActivityEntry[]).map((row) => row.server)).toEqual([
      'github',
      'github',
    ]);
    const lastHour = await api.call('GET', '/activity?since=1h');
    expect(lastHour.json.activity).toHaveLength(3);
    const iso = new Date(api.clock.now().getTime() - 100 * MINUTE).toISOString();
    expect((await api.call('GET', `/activity?since=${iso}`)).json.activity).toHaveLength(4);
    const errors = await api.call('GET', '/activity?outcome=error&since=2h');
    expect((errors.json.activity as ActivityEntry[]).map((row) => row.outcome)).toEqual([
      'error',
      'error',
    ]);
  });

  it('pages backwards with limit and before_id', async () => {
    const first = await api.call('GET', '/activity?limit=2');
    expect(first.json.activity).toHaveLength(2);
    const next = first.json.next_before_id as number;
    expect(next).toBe(first.json.activity[1].id);
    const second = await api.call('GET', `/activity?limit=2&before_id=${next}`);
    const third = await api.call(
      'GET',
      `/activity?limit=2&before_id=${second.json.next_before_id}`,
    );
    expect(third.json.activity).toHaveLength(1);
    expect(third.json.next_before_id).toBeNull();
    const ids = [first, second, third].flatMap((page) =>
      (page.json.activity as { id: number }[]).map((r) => r.id),
    );
    expect(new Set(ids).size).toBe(5);
  });

  it('refuses bad filters with a one-line 400', async () => {
    for (const query of [
      'since=yesterday',
      'limit=0',
      'limit=5000',
      'outcome=maybe',
      'before_id=-1',
      'colour=red',
    ]) {
      const { status, json } = await api.call('GET', `/activity?${query}`);
      expect(status, query).toBe(400);
      expect(json.error.code).toBe('INVALID_INPUT');
    }
  });
});

describe('admin actions are recorded', () => {
  let api: ApiFixture;
  beforeEach(async () => {
    api = await createApiFixture();
  });
  afterEach(() => api.close());

  it('server add / update / disable / enable / refresh / toggle / remove', async () => {
    const server = { name: 'files', transport: 'stdio', command: 'node' };
    expect((await api.call('POST', '/servers', server)).status).toBe(201);
    expect((await api.call('PATCH', '/servers/files', { args: ['x'] })).status).toBe(200);
    expect((await api.call('POST', '/servers/files/disable')).status).toBe(200);
    expect((await api.call('POST', '/servers/files/enable')).status).toBe(200);
    expect((await api.call('POST', '/servers/files/refresh')).status).toBe(200);
    const toggle = { type: 'tool', keys: ['write_file', 'delete'], enabled: false };
    expect((await api.call('POST', '/servers/files/capabilities', toggle)).status).toBe(200);
    expect((await api.call('DELETE', '/servers/files')).status).toBe(204);
    // A refused action changed nothing, so it is not an admin action to record.
    expect((await api.call('DELETE', '/servers/files')).status).toBe(404);
    await api.writer.flush();

    const { json } = await api.call('GET', '/activity');
    const rows = (json.activity as ActivityEntry[]).reverse();
    expect(rows.map((row) => row.action)).toEqual([
      'server.add',
      'server.update',
      'server.disable',
      'server.enable',
      'server.refresh',
      'capability.disable',
      'server.remove',
    ]);
    for (const row of rows) {
      expect(row).toMatchObject({ server: 'files', capability_type: 'admin', outcome: 'ok' });
      expect(row).toMatchObject({ client_name: 'coffer-test', client_version: '1.0' });
      expect(row.trace_id).toMatch(/^[0-9a-f]{32}$/);
    }
    expect(rows[5]?.capability_key).toBe('tool:write_file,delete');
  });
});

describe('parseSince', () => {
  const now = new Date('2026-03-01T12:00:00.000Z');
  it('reads durations and ISO times into the log’s own format', () => {
    expect(parseSince('30m', now)).toBe('2026-03-01T11:30:00.000Z');
    expect(parseSince('1h', now)).toBe('2026-03-01T11:00:00.000Z');
    expect(parseSince('2d', now)).toBe('2026-02-27T12:00:00.000Z');
    expect(parseSince('45s', now)).toBe('2026-03-01T11:59:15.000Z');
    expect(parseSince('2026-02-01T10:00:00+01:00', now)).toBe('2026-02-01T09:00:00.000Z');
    expect(parseSince('99999999999d', now)).toBe('1970-01-01T00:00:00.000Z');
  });
  it('refuses anything else with a hint', () => {
    for (const text of ['', '1', 'h', '1y', 'yesterday', '2026-13-45'])
      expect(() => parseSince(text, now), text).toThrow(/Invalid since/);
  });
});
