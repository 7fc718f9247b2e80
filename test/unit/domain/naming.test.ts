import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import {
  MAX_EXPOSED_NAME_LENGTH,
  assertServerName,
  exposedName,
  exposedUri,
  ownName,
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

  it('never wrap an app URI: coffer://<server>/ui://… is not an exposed form', () => {
    expect(splitExposedUri('coffer://apps/ui://get-time/mcp-app.html')).toBeUndefined();
    expect(splitExposedUri('coffer://docs/skill://git-workflow/SKILL.md')).toBeUndefined();
  });
});

describe('skill:// URIs (the Skills extension)', () => {
  it('stay skill:// with the server as their first segment, and round-trip', () => {
    expect(exposedUri('docs', 'skill://git-workflow/SKILL.md')).toBe(
      'skill://docs/git-workflow/SKILL.md',
    );
    fc.assert(
      fc.property(serverName, fc.string(), (server, rest) => {
        const uri = `skill://${rest}`;
        expect(splitExposedUri(exposedUri(server, uri))).toEqual({ server, uri });
      }),
    );
  });

  it('keep the skill directory as the last segment before SKILL.md', () => {
    const parsed = new URL(exposedUri('docs', 'skill://acme/billing/refunds/SKILL.md'));
    expect(parsed.host).toBe('docs');
    expect(parsed.pathname).toBe('/acme/billing/refunds/SKILL.md');
  });
});

describe('ui:// app URIs (MCP Apps)', () => {
  const appUri = fc.string().map((rest) => `ui://${rest}`);

  it('stay ui:// with the server as their first segment', () => {
    expect(exposedUri('apps', 'ui://get-time/mcp-app.html')).toBe(
      'ui://apps/get-time/mcp-app.html',
    );
    expect(exposedUri('apps', 'ui://')).toBe('ui://apps/');
  });

  it('round-trip byte for byte, the bare ui:// included', () => {
    fc.assert(
      fc.property(serverName, appUri, (server, uri) => {
        expect(splitExposedUri(exposedUri(server, uri))).toEqual({ server, uri });
      }),
    );
  });

  it('are URIs a host can parse, with the server as their host', () => {
    fc.assert(
      fc.property(serverName, fc.webPath(), (server, path) => {
        const parsed = new URL(exposedUri(server, `ui://app${path}`));
        expect(parsed.protocol).toBe('ui:');
        expect(parsed.host).toBe(server);
      }),
    );
  });

  it('stay distinct per server and per original', () => {
    fc.assert(
      fc.property(serverName, serverName, appUri, appUri, (s1, s2, u1, u2) => {
        fc.pre(s1 !== s2 || u1 !== u2);
        expect(exposedUri(s1, u1)).not.toBe(exposedUri(s2, u2));
      }),
    );
  });

  it('keep any other spelling an ordinary URI', () => {
    expect(exposedUri('apps', 'UI://x')).toBe('coffer://apps/UI://x');
    expect(exposedUri('apps', 'ui:x')).toBe('coffer://apps/ui:x');
  });

  it('refuse what no server could have exposed', () => {
    expect(splitExposedUri('ui://get-time')).toBeUndefined();
    expect(splitExposedUri('ui:///x')).toBeUndefined();
    expect(splitExposedUri('ui://Bad__Name/x')).toBeUndefined();
  });
});

describe('ownName: a name copied from an agent, as the server calls it', () => {
  it("takes THIS server's prefix off a tool or prompt name, and keeps anything else", () => {
    expect(ownName('files', 'files__write_file', 'name')).toBe('write_file');
    expect(ownName('files', 'write_file', 'name')).toBe('write_file');
    expect(ownName('files', 'github__create_issue', 'name')).toBe('github__create_issue');
    expect(ownName('files', 'files__', 'name')).toBe('files__');
  });

  it('undoes exposedName for every name short enough not to be cut', () => {
    fc.assert(
      fc.property(
        fc.stringMatching(/^[a-z0-9][a-z0-9-]{0,9}$/),
        fc.string({ minLength: 1, maxLength: 40 }),
        (server, name) => {
          fc.pre(exposedName(server, name).length < MAX_EXPOSED_NAME_LENGTH);
          expect(ownName(server, exposedName(server, name), 'name')).toBe(name);
        },
      ),
    );
  });

  it('takes coffer://<server>/ off a URI of this server only', () => {
    expect(ownName('docs', 'coffer://docs/file:///a.md', 'uri')).toBe('file:///a.md');
    expect(ownName('docs', 'coffer://docs/x://items/{id}', 'uri')).toBe('x://items/{id}');
    expect(ownName('docs', 'coffer://other/file:///a.md', 'uri')).toBe(
      'coffer://other/file:///a.md',
    );
    expect(ownName('docs', 'file:///a.md', 'uri')).toBe('file:///a.md');
    // An app's ui:// URI is the server's own as given: its exposed form is not undone.
    expect(ownName('docs', 'ui://docs/view', 'uri')).toBe('ui://docs/view');
  });
});
