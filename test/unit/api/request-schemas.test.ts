import { describe, expect, it } from 'vitest';
import { CofferError } from '../../../src/domain/errors.js';
import { parseInput } from '../../../src/api/parse-request.js';
import {
  createServerSchema,
  patchServerSchema,
  toggleCapabilitiesSchema,
} from '../../../src/api/request-schemas.js';
import { toServerPatch } from '../../../src/api/server-patch.js';

function failure(run: () => unknown): CofferError {
  try {
    run();
  } catch (error) {
    if (error instanceof CofferError) return error;
    throw error;
  }
  throw new Error('expected a CofferError');
}

describe('createServerSchema', () => {
  it('accepts a stdio server and fills the defaults', () => {
    const parsed = parseInput(createServerSchema, {
      name: 'files',
      transport: 'stdio',
      command: 'node',
    });
    expect(parsed).toMatchObject({ args: [], env: {}, headers: {}, enabled: true });
  });

  it.each([
    [{ name: 'Bad Name', transport: 'stdio', command: 'x' }, 'INVALID_SERVER_NAME', /^name: /],
    [{ name: 'a__b', transport: 'stdio', command: 'x' }, 'INVALID_SERVER_NAME', /"__"/],
    [{ name: 'ok', transport: 'stdio' }, 'INVALID_INPUT', /^command: a stdio server needs/],
    [
      { name: 'ok', transport: 'http', url: 'ftp://x' },
      'INVALID_INPUT',
      /^url: url must be an http/,
    ],
    [{ name: 'ok', transport: 'http' }, 'INVALID_INPUT', /^url: a http server needs a url/],
    [{ name: 'ok', transport: 'carrier-pigeon' }, 'INVALID_INPUT', /^transport: /],
    [{ name: 'ok', transport: 'stdio', command: 'x', extra: 1 }, 'INVALID_INPUT', /extra/],
    [
      { name: 'ok', transport: 'stdio', command: 'x', env: { 'NOT-OK': 'v' } },
      'INVALID_INPUT',
      /^env\.NOT-OK: environment variable names/,
    ],
    [
      { name: 'ok', transport: 'stdio', command: 'x', args: ['a', 3] },
      'INVALID_INPUT',
      /^args\[1\]: /,
    ],
    [
      { name: 'ok', transport: 'http', url: 'http://x/mcp', headers: { 'X-A': 'b\r\nEvil: 1' } },
      'INVALID_INPUT',
      /^headers\.X-A: a header value is one line/,
    ],
    [
      { name: 'ok', transport: 'stdio', command: 'x', env: { A: 'x\u0000y' } },
      'INVALID_INPUT',
      /^env\.A: must not hold a NUL character/,
    ],
    [
      { name: 'ok', transport: 'stdio', command: 'tr\u0000ue' },
      'INVALID_INPUT',
      /^command: must not hold a NUL character/,
    ],
    [
      { name: 'ok', transport: 'stdio', command: 'x', args: ['a\u0000'] },
      'INVALID_INPUT',
      /^args\[0\]: must not hold a NUL character/,
    ],
    ['not an object', 'INVALID_INPUT', /object/],
  ])('refuses %j with %s', (body, code, message) => {
    const error = failure(() => parseInput(createServerSchema, body));
    expect(error.code).toBe(code);
    expect(error.message).toMatch(message);
    expect(error.message).not.toContain('\n');
  });
});

describe('patchServerSchema', () => {
  it('keeps absent fields absent (no defaults sneak in)', () => {
    expect(parseInput(patchServerSchema, { enabled: false })).toEqual({ enabled: false });
  });

  it('refuses an empty patch, a rename and unknown fields', () => {
    expect(failure(() => parseInput(patchServerSchema, {})).message).toMatch(/changes nothing/);
    expect(failure(() => parseInput(patchServerSchema, { name: 'x' })).message).toMatch(
      /cannot be renamed/,
    );
    expect(failure(() => parseInput(patchServerSchema, { bogus: 1 })).code).toBe('INVALID_INPUT');
  });

  it('turns null into a cleared field for the store', () => {
    const patch = parseInput(patchServerSchema, {
      transport: 'http',
      command: null,
      url: 'http://127.0.0.1:1/mcp',
    });
    const changes = toServerPatch(patch);
    expect(changes).toEqual({
      transport: 'http',
      command: undefined,
      url: 'http://127.0.0.1:1/mcp',
    });
    expect(Object.hasOwn(changes, 'command')).toBe(true);
    expect(Object.hasOwn(changes, 'cwd')).toBe(false);
  });
});

describe('toggleCapabilitiesSchema', () => {
  it('accepts each capability type', () => {
    for (const type of ['tool', 'prompt', 'resource', 'resource_template']) {
      expect(parseInput(toggleCapabilitiesSchema, { type, keys: ['k'], enabled: false }).type).toBe(
        type,
      );
    }
  });

  it.each([
    [{ type: 'widget', keys: ['k'], enabled: true }, /^type: /],
    [{ type: 'tool', keys: [], enabled: true }, /^keys: give at least one key/],
    [{ type: 'tool', keys: [''], enabled: true }, /^keys\[0\]: a key must not be empty/],
    [{ type: 'tool', keys: ['k'] }, /^enabled: /],
    [{ type: 'tool', keys: ['k'], enabled: 'yes' }, /^enabled: /],
    [
      { type: 'tool', keys: Array.from({ length: 1001 }, (_, i) => `k${i}`), enabled: true },
      /^keys: at most 1000 keys/,
    ],
  ])('refuses %j', (body, message) => {
    const error = failure(() => parseInput(toggleCapabilitiesSchema, body));
    expect(error.code).toBe('INVALID_INPUT');
    expect(error.message).toMatch(message);
  });
});
