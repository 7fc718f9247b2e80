import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import {
  MAX_EXPOSED_NAME_LENGTH,
  assertServerName,
  exposedName,
  exposedUri,
  serverNameProblem,
  splitExposedName,
  splitExposedUri,
} from '../../../src/domain/naming.js';
import { CofferError } from '../../../src/domain/errors.js';

/** Server names that follow every rule of DESIGN.md §3. */
const serverName = fc
  .stringMatching(/^[a-z0-9][a-z0-9_-]{0,31}$/)
  .filter((name) => !name.includes('__') && !name.endsWith('_') && name !== 'coffer');

const upstreamName = fc.string({ minLength: 1, maxLength: 80 });

describe('server names', () => {
  it.each([
    ['', 'empty'],
    ['GitHub', 'lowercase'],
    ['-files', 'start'],
    ['my__files', '"__"'],
    ['files_', 'end with "_"'],
    ['a'.repeat(33), 'limit is 32'],
    ['has space', 'lowercase'],
  ])('refuses %j, saying which rule it broke', (name, rule) => {
    expect(serverNameProblem(name)).toContain(rule);
    expect(() => assertServerName(name)).toThrow(CofferError);
  });

  it('accepts every name the rules allow', () => {
    fc.assert(fc.property(serverName, (name) => serverNameProblem(name) === undefined));
  });
});

describe('exposed tool and prompt names', () => {
  it('round-trip through the split when they fit', () => {
    fc.assert(
      fc.property(serverName, upstreamName, (server, name) => {
        const exposed = exposedName(server, name);
        fc.pre(exposed === `${server}__${name}`);
        expect(splitExposedName(exposed)).toEqual({ server, name });
      }),
    );
  });

  it('never exceed the client limit, and cut names stay distinct and stable', () => {
    fc.assert(
      fc.property(serverName, upstreamName, upstreamName, (server, a, b) => {
        const x = exposedName(server, a);
        expect(x.length).toBeLessThanOrEqual(MAX_EXPOSED_NAME_LENGTH);
        expect(exposedName(server, a)).toBe(x);
        if (a !== b) expect(exposedName(server, b)).not.toBe(x);
      }),
    );
  });
});

describe('coffer:// resource URIs', () => {
  it('round-trip any original URI byte for byte', () => {
    fc.assert(
      fc.property(serverName, fc.string({ minLength: 1 }), (server, uri) => {
        expect(splitExposedUri(exposedUri(server, uri))).toEqual({ server, uri });
      }),
    );
  });

  it('refuses URIs that are not Coffer URIs', () => {
    expect(splitExposedUri('file:///etc/passwd')).toBeUndefined();
    expect(splitExposedUri('coffer://Bad__Name/x')).toBeUndefined();
    expect(splitExposedUri('coffer://server/')).toBeUndefined();
  });
});
