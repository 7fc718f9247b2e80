import { describe, expect, it } from 'vitest';
import { findAgent, planImport } from '../../../src/agents/index.js';
import type { KnownServer } from '../../../src/domain/same-launch.js';
import { serverDefinitionSchema } from '../../../src/domain/server-definition.js';
import {
  hasPlaceholder,
  isStandIn,
  secretName,
  secretValue,
} from '../../../src/agents/secret-detection.js';
import { freeName, toCofferName } from '../../../src/agents/server-names.js';

const cursor = findAgent('cursor');
const none: KnownServer[] = [];
/** A server Coffer has under `name`, started unlike any entry here. */
const named = (name: string): KnownServer =>
  serverDefinitionSchema.parse({ name, transport: 'stdio', command: 'elsewhere' });

describe('secret detection', () => {
  it.each([
    'GITHUB_TOKEN',
    'OPENAI_API_KEY',
    'apiKey',
    'CLIENT_SECRET',
    'DB_PASSWORD',
    'Authorization',
    'X-Api-Key',
    'GH_PAT',
    'Cookie',
  ])('%s is a secret by name', (name) => expect(secretName(name)).toBe(true));
  it.each(['LOG_LEVEL', 'PATH', 'HOME', 'X-Team', 'NODE_ENV'])('%s is not', (name) =>
    expect(secretName(name)).toBe(false),
  );
  it('recognises well-known credential values under any name', () => {
    expect(secretValue('ghp_abc123')).toBe(true);
    expect(secretValue('Bearer abc')).toBe(true);
    expect(secretValue('sk-proj-123')).toBe(true);
    expect(secretValue('debug')).toBe(false);
    // …and every shape the server store refuses as a plain value.
    expect(secretValue('eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.abcdefghijklmnop')).toBe(
      true,
    );
    expect(secretValue('-----BEGIN PRIVATE KEY-----\nMIIE')).toBe(true);
  });
  it('tells placeholders from passwords with a dollar sign', () => {
    expect(hasPlaceholder('${GITHUB_TOKEN}')).toBe(true);
    expect(hasPlaceholder('Bearer ${env:TOKEN}')).toBe(true);
    expect(hasPlaceholder('$TOKEN')).toBe(true);
    expect(hasPlaceholder('pa$$word')).toBe(false);
    // Gemini CLI's header style: a scheme, then a bare reference.
    expect(hasPlaceholder('Bearer $GITHUB_PAT')).toBe(true);
    expect(hasPlaceholder('token $GH_TOKEN')).toBe(true);
    expect(hasPlaceholder('my pa$word')).toBe(false);
  });
});

describe('stand-ins from README snippets', () => {
  it.each([
    '<YOUR_TOKEN>',
    'Bearer <your-api-key>',
    'YOUR_API_KEY',
    'your-token-here',
    'paste_token_here',
    'xxxxxxxx',
    '****',
    'changeme',
  ])('%s is a stand-in', (value) => expect(isStandIn(value)).toBe(true));
  it.each(['ghp_abc123', 'Bearer t0k', 'debug', 'youtube', 'https://x.test/here/mcp', 'xx'])(
    '%s is a value',
    (value) => expect(isStandIn(value)).toBe(false),
  );

  it('names the secret for Coffer to ask for, and stores no value for it', () => {
    const [item] = planImport(
      cursor,
      {
        github: {
          command: 'npx',
          env: { GITHUB_TOKEN: '<YOUR_TOKEN>', LOG_LEVEL: 'info' },
        },
      },
      { known: none },
    );
    expect(item?.definition).toMatchObject({
      env: { LOG_LEVEL: 'info' },
      secret_env: ['GITHUB_TOKEN'],
    });
    expect(item?.secrets).toEqual([]);
    expect(item?.notes).toEqual([
      'env GITHUB_TOKEN is a stand-in ("<YOUR_TOKEN>"), not a value: nothing is stored; set it before use',
    ]);
  });
});

describe('secrets the agent fills in itself', () => {
  it('names them for the user to set, stores nothing, and keeps other placeholders', () => {
    const [local, remote] = planImport(
      cursor,
      {
        github: {
          command: 'npx',
          env: { GITHUB_TOKEN: '${env:GITHUB_TOKEN}', ROOT: '${env:HOME}/code', KEY: '$KEY' },
        },
        linear: {
          url: 'https://mcp.linear.example/mcp',
          headers: { Authorization: 'Bearer ${input:linear-token}', 'X-Team': '${TEAM}' },
        },
      },
      { known: none },
    );
    expect(local?.definition).toMatchObject({
      env: { ROOT: '${env:HOME}/code' },
      secret_env: ['GITHUB_TOKEN', 'KEY'],
    });
    expect(local?.secrets).toEqual([]);
    expect(local?.notes).toEqual([
      'env GITHUB_TOKEN is filled in by the agent ("${env:GITHUB_TOKEN}"), which Coffer cannot do: nothing is stored; set it before use',
      'env ROOT is a placeholder the agent expands; Coffer passes it unchanged',
      'env KEY is filled in by the agent ("$KEY"), which Coffer cannot do: nothing is stored; set it before use',
    ]);
    expect(remote?.definition).toMatchObject({
      headers: { 'X-Team': '${TEAM}' },
      secret_headers: ['Authorization'],
    });
    expect(remote?.secrets).toEqual([]);
  });
});

describe('a scheme before a bare reference (Gemini CLI headers)', () => {
  it('is filled in by the agent, not stored as the token', () => {
    const [item] = planImport(
      cursor,
      {
        github: {
          url: 'https://api.githubcopilot.example/mcp',
          headers: { Authorization: 'Bearer $GITHUB_PAT' },
        },
      },
      { known: none },
    );
    expect(item?.definition).toMatchObject({ headers: {}, secret_headers: ['Authorization'] });
    expect(item?.secrets).toEqual([]);
    expect(item?.notes).toEqual([
      'header Authorization is filled in by the agent ("Bearer $GITHUB_PAT"), which Coffer cannot do: nothing is stored; set it before use',
    ]);
  });
});

describe('Coffer names for agent names', () => {
  it.each([
    ['github', 'github'],
    ['GitHub', 'github'],
    ['my.server', 'my-server'],
    ['a__b', 'a_b'],
    ['trailing_', 'trailing'],
    ['@scope/pkg', 'scope-pkg'],
    ['!!!', 'server'],
    ['Café', 'cafe'],
    ['ünï-cøde', 'uni-code'],
    ['Straße', 'strasse'],
    ['Ｗｉｄｅ', 'wide'],
    ['日本語', 'server'],
    ['x'.repeat(40), 'x'.repeat(32)],
  ])('%s → %s', (original, name) => expect(toCofferName(original)).toBe(name));

  it('finds a free name within the length limit', () => {
    expect(freeName('a', new Set(['a', 'a-2']))).toBe('a-3');
    expect(freeName('x'.repeat(32), new Set(['x'.repeat(32)]))).toBe(`${'x'.repeat(30)}-2`);
  });
});

describe('planImport', () => {
  it('splits secrets from plain values and keeps names only in the definition', () => {
    const [item] = planImport(
      cursor,
      {
        api: {
          url: 'https://a.test/mcp',
          headers: { Authorization: 'Bearer t0k', 'X-Team': 'blue' },
        },
      },
      { known: none },
    );
    expect(item).toMatchObject({
      action: 'add',
      definition: {
        transport: 'http',
        headers: { 'X-Team': 'blue' },
        secret_headers: ['Authorization'],
      },
      secrets: [{ server: 'api', kind: 'header', name: 'Authorization', value: 'Bearer t0k' }],
    });
  });

  it('treats names the user marks as secrets, in any case', () => {
    const [item] = planImport(
      cursor,
      { s: { command: 'x', env: { SITE_ID: '42' } } },
      {
        known: none,
        secretNames: ['site_id'],
      },
    );
    expect(item?.definition?.secret_env).toEqual(['SITE_ID']);
  });

  it('never stores a placeholder as a secret value, and says so', () => {
    const [item] = planImport(
      cursor,
      { s: { command: 'x', env: { GITHUB_TOKEN: '${GITHUB_TOKEN}', MODE: '${MODE}' } } },
      {
        known: none,
      },
    );
    expect(item?.definition?.env).toEqual({ MODE: '${MODE}' });
    expect(item?.definition?.secret_env).toEqual(['GITHUB_TOKEN']);
    expect(item?.secrets).toEqual([]);
    expect(item?.notes.join()).toMatch(/filled in by the agent.*placeholder/);
  });

  it('skips clashes unless --rename, and names within the file never collide', () => {
    const servers = { GitHub: { command: 'a' }, github: { command: 'b' } };
    const skipped = planImport(cursor, servers, { known: [named('github')] });
    expect(skipped.map((item) => item.action)).toEqual(['clash', 'clash']);
    expect(skipped[0]?.reason).toMatch(/already exists \(use --rename\)/);
    const inFile = planImport(cursor, servers, { known: none });
    expect(inFile.map((item) => [item.action, item.server])).toEqual([
      ['add', 'github'],
      ['clash', 'github'],
    ]);
    const renamed = planImport(cursor, servers, { known: [named('github')], rename: true });
    expect(renamed.map((item) => item.server)).toEqual(['github-2', 'github-3']);
  });

  it('recognises a server Coffer already has, under any name, even with --rename', () => {
    const github = {
      command: 'npx',
      args: ['-y', '@modelcontextprotocol/server-github'],
      env: { GITHUB_TOKEN: 'ghp_agentsown', LOG_LEVEL: 'info' },
    };
    const known: KnownServer[] = [
      serverDefinitionSchema.parse({
        name: 'github',
        transport: 'stdio',
        command: 'npx',
        args: ['-y', '@modelcontextprotocol/server-github'],
        env: { LOG_LEVEL: 'info' },
        secret_env: ['GITHUB_TOKEN'],
      }),
    ];
    const servers = { gh: github, github, other: { ...github, args: ['-y', 'other-server'] } };
    const items = planImport(cursor, servers, {
      known,
      rename: true,
    });
    expect(items.map((item) => [item.original, item.action, item.server])).toEqual([
      ['gh', 'same', 'github'],
      ['github', 'same', 'github'],
      ['other', 'add', 'other'],
    ]);
    expect(items[0]?.reason).toBe(
      'Coffer already has it as "github" (same command and settings; Coffer uses the GITHUB_TOKEN it holds)',
    );
    expect(items[0]?.secrets).toEqual([]);
    expect(items[1]?.notes).toEqual([]); // not "named github-2 in Coffer": nothing is named
    const changed = planImport(
      cursor,
      { github: { ...github, env: { ...github.env, LOG_LEVEL: 'debug' } } },
      { known },
    );
    expect(changed[0]?.action).toBe('clash');
    const off = planImport(cursor, { github }, { known: [{ ...known[0]!, enabled: false }] });
    expect(off[0]?.reason).toMatch(/; it is disabled: coffer mcp enable github\)$/);
  });

  it('skips an entry that reaches this daemon over HTTP: Coffer itself', () => {
    const servers = {
      'coffer-http': { url: 'http://127.0.0.1:8000/mcp', headers: { Authorization: 'Bearer t' } },
      elsewhere: { url: 'http://127.0.0.1:8001/mcp' },
    };
    const items = planImport(cursor, servers, { known: none, ownPort: 8000 });
    expect(items.map((item) => [item.action, item.reason ?? ''])).toEqual([
      ['skip', 'it is Coffer itself (its HTTP endpoint)'],
      ['add', ''],
    ]);
  });

  it("skips Coffer's own entry and entries imported before", () => {
    const servers = {
      coffer: { command: '/usr/bin/node', args: ['/opt/coffer/bin/coffer.js', 'shim'] },
      files: { command: 'fs-mcp' },
    };
    const items = planImport(cursor, servers, {
      known: [named('files')],
      imported: new Map([['files', 'files']]),
    });
    expect(items.map((item) => [item.action, item.reason])).toEqual([
      ['skip', 'it is Coffer itself'],
      ['skip', 'already imported as "files"'],
    ]);
  });

  it('reports entries Coffer cannot hold', () => {
    const [item] = planImport(cursor, { bad: { url: 'ftp://x.test' } }, { known: none });
    expect(item).toMatchObject({
      action: 'invalid',
      reason: 'url must be an http:// or https:// URL',
    });
  });

  it('fingerprints entries without keeping their contents', () => {
    const [item] = planImport(
      cursor,
      { s: { command: 'x', env: { TOKEN: 'ghp_123' } } },
      { known: none },
    );
    expect(item?.fingerprint).toMatch(/^[0-9a-f]{64}$/);
  });
});

describe("Claude Code's ${VAR:-default}", () => {
  const claudeCode = findAgent('claude-code');

  it('is read as its default, the value the agent uses while VAR is unset, and said', () => {
    const [local, remote] = planImport(
      claudeCode,
      {
        files: {
          command: '${NODE_BIN:-node}',
          args: ['server.js', '--root=${ROOT:-/srv/data}'],
          env: { LOG_LEVEL: '${LOG_LEVEL:-info}', API_KEY: '${API_KEY:-}', MODE: '${MODE}' },
        },
        api: {
          type: 'http',
          url: '${API_URL:-https://api.example.com}/mcp',
          headers: { 'X-Team': '${TEAM:-core}' },
        },
      },
      { known: none },
    );
    expect(local?.definition).toMatchObject({
      command: 'node',
      args: ['server.js', '--root=/srv/data'],
      env: { LOG_LEVEL: 'info', MODE: '${MODE}' },
      secret_env: ['API_KEY'],
    });
    expect(local?.secrets).toEqual([]);
    expect(local?.notes).toContain(
      'read ${NODE_BIN:-node} as "node", ${ROOT:-/srv/data} as "/srv/data", ${LOG_LEVEL:-info} as "info": the agent\'s values while those variables are unset; where it has them set, change the server in Coffer (coffer mcp edit)',
    );
    // An empty default for a secret is no value: the agent fills it in, as ${API_KEY}.
    expect(local?.notes.join('\n')).toContain('env API_KEY is filled in by the agent');
    // Where the agent has them set, its entry differs: install --replace must keep it.
    expect(local?.dropped).toEqual([
      '${NODE_BIN:-node}',
      '${ROOT:-/srv/data}',
      '${LOG_LEVEL:-info}',
    ]);
    expect(remote?.definition).toMatchObject({
      url: 'https://api.example.com/mcp',
      headers: { 'X-Team': 'core' },
    });
  });

  it('stores a secret default as the secret, and never prints it', () => {
    const [item] = planImport(
      claudeCode,
      { gh: { command: 'gh-mcp', env: { GH_TOKEN: '${GH_TOKEN:-ghp_abc123}' } } },
      { known: none },
    );
    expect(item?.secrets).toEqual([
      { server: 'gh', kind: 'env', name: 'GH_TOKEN', value: 'ghp_abc123' },
    ]);
    expect(item?.notes.join('\n')).not.toContain('ghp_abc123');
    expect(item?.notes).toContain(
      "read ${GH_TOKEN:-***} as its default: the agent's value while GH_TOKEN is unset; where it has GH_TOKEN set, change the server in Coffer (coffer mcp edit)",
    );
  });

  it('stays as written for agents that do not expand it', () => {
    const [item] = planImport(
      cursor,
      { s: { command: 'x', env: { LOG_LEVEL: '${LOG_LEVEL:-info}' } } },
      { known: none },
    );
    expect(item?.definition?.env).toEqual({ LOG_LEVEL: '${LOG_LEVEL:-info}' });
  });
});
