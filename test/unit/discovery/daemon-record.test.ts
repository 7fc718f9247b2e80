import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  daemonInfoFromRecord,
  parseDaemonRecord,
  serializeDaemonRecord,
  type DaemonRecord,
} from '../../../src/discovery/daemon-record.js';

const valid: DaemonRecord = {
  version: 1,
  pid: 12345,
  port: 8001,
  token: 'abcdefghijklmnopqrstuvwxyz012-_A',
  started_at: '2026-05-20T12:34:56.000Z',
  binary_path: '/opt/coffer/bin/coffer.js',
};

function reasonOf(text: string): string {
  const parsed = parseDaemonRecord(text);
  if (parsed.ok) throw new Error('expected a parse failure');
  return parsed.reason;
}

describe('daemon.json format', () => {
  it('parses the six fields', () => {
    expect(parseDaemonRecord(JSON.stringify(valid))).toEqual({ ok: true, record: valid });
  });

  it('keeps the optional socket field, and refuses one that is not a string', () => {
    const withSocket = { ...valid, socket: '/home/ada/.coffer/coffer.sock' };
    expect(parseDaemonRecord(serializeDaemonRecord(withSocket))).toEqual({
      ok: true,
      record: withSocket,
    });
    expect(daemonInfoFromRecord(withSocket).socket).toBe(withSocket.socket);
    expect(reasonOf(JSON.stringify({ ...valid, socket: 7 }))).toBe('"socket" is not a string');
  });

  it('keeps the optional home field, and refuses one that is not a string', () => {
    const withHome = { ...valid, home: '/home/ada/.coffer' };
    expect(parseDaemonRecord(serializeDaemonRecord(withHome))).toEqual({
      ok: true,
      record: withHome,
    });
    expect(reasonOf(JSON.stringify({ ...valid, home: 1 }))).toBe('"home" is not a string');
  });

  it('tolerates (and drops) unknown fields', () => {
    const parsed = parseDaemonRecord(JSON.stringify({ ...valid, future: { x: 1 }, ui_port: 3 }));
    expect(parsed).toEqual({ ok: true, record: valid });
  });

  it('round-trips through serialize', () => {
    const text = serializeDaemonRecord(valid);
    expect(text.endsWith('\n')).toBe(true);
    expect(Object.keys(JSON.parse(text) as object)).toEqual([
      'version',
      'pid',
      'port',
      'token',
      'started_at',
      'binary_path',
    ]);
    expect(parseDaemonRecord(text)).toEqual({ ok: true, record: valid });
  });

  it('round-trips any well-formed record (property)', () => {
    fc.assert(
      fc.property(
        fc.record({
          pid: fc.integer({ min: 1, max: 4_194_304 }),
          port: fc.integer({ min: 1, max: 65_535 }),
          token: fc.stringMatching(/^[A-Za-z0-9_-]{32}$/),
          started_at: fc
            .date({ min: new Date(0), max: new Date('2100-01-01'), noInvalidDate: true })
            .map((d) => d.toISOString()),
          binary_path: fc.string(),
        }),
        (fields) => {
          const record: DaemonRecord = { version: 1, ...fields };
          expect(parseDaemonRecord(serializeDaemonRecord(record))).toEqual({ ok: true, record });
        },
      ),
    );
  });

  it('rejects text that is not JSON or not an object', () => {
    expect(reasonOf('{"version":1,')).toMatch(/not valid JSON/);
    expect(reasonOf('')).toMatch(/not valid JSON/);
    expect(reasonOf('[1,2]')).toMatch(/not a JSON object/);
    expect(reasonOf('null')).toMatch(/not a JSON object/);
    expect(reasonOf('"daemon"')).toMatch(/not a JSON object/);
  });

  it('rejects other versions', () => {
    expect(reasonOf(JSON.stringify({ ...valid, version: 2 }))).toMatch(/unsupported version 2/);
    expect(reasonOf(JSON.stringify({ ...valid, version: '1' }))).toMatch(/unsupported version/);
    expect(reasonOf(JSON.stringify({ ...valid, version: undefined }))).toMatch(
      /unsupported version/,
    );
  });

  it.each([
    ['pid', 0, /pid/],
    ['pid', -3, /pid/],
    ['pid', 1.5, /pid/],
    ['pid', '123', /pid/],
    ['port', 0, /port/],
    ['port', 70_000, /port/],
    ['port', '8000', /port/],
    ['token', '', /token/],
    ['token', 'has space', /token/],
    ['token', 'a/b+c=', /token/],
    ['token', 42, /token/],
    ['started_at', 'yesterday', /started_at/],
    ['started_at', 0, /started_at/],
    ['binary_path', null, /binary_path/],
  ])('rejects %s = %j', (field, value, reason) => {
    expect(reasonOf(JSON.stringify({ ...valid, [field]: value }))).toMatch(reason);
  });

  it('derives the URLs clients use', () => {
    expect(daemonInfoFromRecord(valid)).toEqual({
      pid: 12345,
      port: 8001,
      token: valid.token,
      startedAt: valid.started_at,
      binaryPath: valid.binary_path,
      baseUrl: 'http://127.0.0.1:8001',
      mcpUrl: 'http://127.0.0.1:8001/mcp',
    });
  });
});
