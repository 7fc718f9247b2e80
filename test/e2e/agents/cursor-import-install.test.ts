import { execFile } from 'node:child_process';
import {
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePortRange } from '../../support/free-port-range.js';
import { cofferBin, repoRoot, fixtureServer as FIXTURE } from '../../support/running-daemon.js';
import { toolsOnceListed } from '../../support/listed-tools.js';

const TOKEN = 'e2e-tok-3f9a1c7d5b2e';

interface Run {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
}

/** Every file under a directory, for "the token is nowhere in the agent's files". */
function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? filesUnder(path) : [path];
  });
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- JSON of any route
type Json = any;

async function daemonApi(
  cofferHome: string,
  path: string,
): Promise<{ status: number; body: Json }> {
  const { port, token } = JSON.parse(readFileSync(join(cofferHome, 'daemon.json'), 'utf8'));
  const response = await fetch(`http://127.0.0.1:${port}/api/v1${path}`, {
    headers: { authorization: `Bearer ${token}` },
  });
  const text = await response.text();
  return { status: response.status, body: text === '' ? null : JSON.parse(text) };
}

/**
 * The end-to-end story, with the built CLI as a user runs it: a Cursor config
 * holding the fixture server and a token → `agents import cursor` → the token is in
 * Coffer's secret store and in no agent file → `agents install cursor --replace` → an
 * MCP client started from the written entry, exactly as Cursor would, lists and calls
 * the fixture's tools through Coffer, and the upstream receives the token.
 */
describe('coffer agents: import from Cursor, install, use through the shim', () => {
  let root: string;
  let home: string;
  let cofferHome: string;
  let env: NodeJS.ProcessEnv;
  let cursorFile: string;
  let client: Client | undefined;

  /** `coffer …` as a user runs it, with `input` on its stdin when given. */
  const cofferFed = (input: string | undefined, ...args: string[]): Promise<Run> =>
    new Promise((done) => {
      const child = execFile(
        process.execPath,
        [cofferBin, ...args],
        { env, timeout: 60_000 },
        (error, stdout, stderr) => {
          const code = error === null ? 0 : typeof error.code === 'number' ? error.code : -1;
          done({ code, stdout, stderr });
        },
      );
      if (input !== undefined) child.stdin?.end(input);
    });
  const coffer = (...args: string[]): Promise<Run> => cofferFed(undefined, ...args);

  beforeAll(async () => {
    root = mkdtempSync(join(tmpdir(), 'coffer-e2e-agents-'));
    home = join(root, 'home');
    cofferHome = join(root, 'coffer');
    const range = await freePortRange();
    env = {
      ...process.env,
      HOME: home,
      USERPROFILE: home,
      XDG_CONFIG_HOME: join(home, '.config'),
      COFFER_HOME: cofferHome,
      COFFER_PORT_RANGE: range.env,
      NO_COLOR: '1',
    };
    cursorFile = join(home, '.cursor', 'mcp.json');
    mkdirSync(join(home, '.cursor'), { recursive: true });
    const config = {
      mcpServers: {
        fixture: {
          command: process.execPath,
          args: [FIXTURE, '--scenario', 'basic'],
          env: { API_TOKEN: TOKEN, LOG_LEVEL: 'debug' },
        },
      },
    };
    writeFileSync(cursorFile, `${JSON.stringify(config, null, 2)}\n`);
  });

  afterAll(async () => {
    await client?.close().catch(() => undefined);
    if (cofferHome !== undefined) await coffer('stop');
    if (root !== undefined) rmSync(root, { recursive: true, force: true });
  });

  /** Cursor's row of `coffer agents list`: its servers cell, and `to_import` of --json. */
  async function listedCursor(): Promise<{ cell: string | undefined; toImport: unknown }> {
    const table = await coffer('agents', 'list');
    expect(table.code, table.stderr).toBe(0);
    const cell = /^│ cursor\s*│ user\s*│\s*([^│]*?)\s*│/m.exec(table.stdout)?.[1];
    const json = await coffer('agents', 'list', '--json');
    const { agents } = JSON.parse(json.stdout) as {
      agents: { id: string; locations: { path: string; to_import?: number }[] }[];
    };
    const cursor = agents.find((agent) => agent.id === 'cursor');
    const row = cursor?.locations.find((location) => location.path === cursorFile);
    return { cell, toImport: row?.to_import };
  }

  it('imports the server, moving the token out of its definition', async () => {
    const dryRun = await coffer('agents', 'import', 'cursor', '--dry-run');
    expect(dryRun.code, dryRun.stderr).toBe(0);
    expect(dryRun.stdout).toContain('API_TOKEN=***');
    expect(dryRun.stdout).not.toContain(TOKEN);
    // The dry run started the daemon: the list now says what is left to import.
    expect(await listedCursor()).toEqual({ cell: '1 (1 to import)', toImport: 1 });

    const run = await coffer('agents', 'import', 'cursor');
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout + run.stderr).not.toContain(TOKEN);
    expect(run.stdout).toContain('Imported 1 of 1');
    expect(await listedCursor()).toEqual({ cell: '1', toImport: 0 });

    const { body } = await daemonApi(cofferHome, '/servers/fixture');
    expect(body.server).toMatchObject({ env: { LOG_LEVEL: 'debug' }, secret_env: ['API_TOKEN'] });
    expect(JSON.stringify(body)).not.toContain(TOKEN);
  });

  it('says in a dry run which local server would not start: its command is not on the PATH', async () => {
    const snippet = join(root, 'needs-uvx.json');
    const mcpServers = {
      fetch: { command: 'coffer-e2e-no-such-uvx', args: ['mcp-server-fetch'] },
      here: { command: process.execPath, args: [FIXTURE] },
    };
    writeFileSync(snippet, JSON.stringify({ mcpServers }));
    const dry = await coffer('agents', 'import', 'claude-desktop', '--file', snippet, '--dry-run');
    expect(dry.code, dry.stderr).toBe(0);
    expect(dry.stdout).toContain(
      '+ fetch: would add (stdio: coffer-e2e-no-such-uvx mcp-server-fetch)',
    );
    expect(dry.stderr.trimEnd().split('\n')).toEqual([
      'coffer: warning: fetch: command not found: coffer-e2e-no-such-uvx (not on the PATH Coffer searches)',
      '  fix: install coffer-e2e-no-such-uvx, or give the server its full path (`coffer doctor` says how)',
    ]);
  });

  it('sees the same server in a second agent: adds nothing, and install --replace takes it and Coffer over HTTP out', async () => {
    const claudeFile = join(home, '.claude.json');
    const entry = {
      command: process.execPath,
      args: [FIXTURE, '--scenario', 'basic'],
      env: { LOG_LEVEL: 'debug', API_TOKEN: TOKEN },
    };
    // Coffer reached over HTTP, as the README shows: Coffer itself, never imported.
    const { port } = JSON.parse(readFileSync(join(cofferHome, 'daemon.json'), 'utf8')) as {
      port: number;
    };
    const self = { type: 'http', url: `http://127.0.0.1:${port}/mcp` };
    const mcpServers = { fx: entry, 'coffer-http': self };
    writeFileSync(claudeFile, JSON.stringify({ mcpServers }, null, 2));
    const run = await coffer('agents', 'import', 'claude-code');
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toContain(
      '= fx: nothing to add, Coffer already has it as "fixture" (same command and settings; Coffer uses the API_TOKEN it holds)',
    );
    expect(run.stdout).toContain('- coffer-http: skipped, it is Coffer itself (its HTTP endpoint)');
    expect(run.stdout).toContain('Imported 0 of 2');
    expect(run.stdout).toContain(
      'One entry is a server Coffer already has: `coffer agents install claude-code --replace` takes it out of this file.',
    );
    const { body } = await daemonApi(cofferHome, '/servers');
    const servers = body.servers as { name: string }[];
    expect(servers.map((server) => server.name)).toEqual(['fixture']);

    // The running daemon's port tells install which entry reaches Coffer over HTTP.
    const dryRun = await coffer('agents', 'install', 'claude-code', '--dry-run');
    expect(dryRun.code, dryRun.stderr).toBe(0);
    expect(dryRun.stdout).toContain(
      '! "coffer-http" reaches Coffer over HTTP, as the "coffer" entry does, so the agent lists every tool twice (to remove it here: install again with --replace)',
    );
    const install = await coffer('agents', 'install', 'claude-code', '--replace');
    expect(install.code, install.stderr).toBe(0);
    expect(install.stdout).toContain('remove "fx" (now served by Coffer)');
    expect(install.stdout).toContain(
      '- remove "coffer-http" (it reaches Coffer over HTTP: the "coffer" entry serves the same)',
    );
    const written = JSON.parse(readFileSync(claudeFile, 'utf8')) as { mcpServers: object };
    expect(Object.keys(written.mcpServers)).toEqual(['coffer']);
  });

  it('keeps the token in the secret store, not in the agent file (once install replaces it)', async () => {
    const secrets = await daemonApi(cofferHome, '/secrets?server=fixture');
    expect(secrets.status, 'POST/GET /api/v1/secrets must exist (credentials layer)').toBe(200);
    expect(secrets.body.secrets).toContainEqual(
      expect.objectContaining({ server: 'fixture', kind: 'env', name: 'API_TOKEN', stored: true }),
    );
    expect(JSON.stringify(secrets.body)).not.toContain(TOKEN);

    const install = await coffer('agents', 'install', 'cursor', '--replace');
    expect(install.code, install.stderr).toBe(0);
    expect(install.stdout).toContain('remove "fixture"');
    for (const file of filesUnder(home)) expect(readFileSync(file, 'utf8')).not.toContain(TOKEN);

    const again = await coffer('agents', 'install', 'cursor', '--replace');
    expect(again.stdout).toContain('Nothing to change.');
  });

  it('serves the fixture to a client started exactly as Cursor would start it', async () => {
    const written = JSON.parse(readFileSync(cursorFile, 'utf8')).mcpServers.coffer;
    expect(written).toEqual({
      command: process.execPath,
      args: [join(repoRoot, 'bin', 'coffer.js'), 'shim'],
      env: { COFFER_HOME: cofferHome },
    });
    // Cursor passes its own environment (the user's) plus the entry's `env`.
    const agentEnv = {
      HOME: home,
      PATH: process.env['PATH'] ?? '',
      COFFER_PORT_RANGE: env['COFFER_PORT_RANGE'] ?? '',
      ...written.env,
    };
    const transport = new StdioClientTransport({
      command: written.command,
      args: written.args,
      env: agentEnv,
      stderr: 'pipe',
    });
    client = new Client({ name: 'cursor-e2e', version: '1.0.0' });
    await client.connect(transport);
    // The daemon starts the fixture on this first list: listed once started (list_changed).
    await toolsOnceListed(client, ['fixture__echo']);

    const echoed = await client.callTool({ name: 'fixture__echo', arguments: { hello: 'agents' } });
    expect(JSON.stringify(echoed.content)).toContain('agents');
    // The upstream gets the token from the secret store, though no file holds it.
    const seen = await client.callTool({ name: 'fixture__env', arguments: { name: 'API_TOKEN' } });
    // …and Coffer redacts it from the answer (issue 20.3): the marker stands where it was.
    expect(seen.content).toEqual([
      { type: 'text', text: '[redacted: secret fixture/env/API_TOKEN]' },
    ]);
  });

  it('uninstalls back to the original file', async () => {
    await client?.close();
    client = undefined;
    const run = await coffer('agents', 'uninstall', 'cursor');
    expect(run.code, run.stderr).toBe(0);
    const servers = JSON.parse(readFileSync(cursorFile, 'utf8')).mcpServers as Record<
      string,
      { env: Record<string, string> }
    >;
    expect(Object.keys(servers)).toEqual(['fixture']);
    expect(servers['fixture']?.env['API_TOKEN']).toBe(TOKEN);
  });

  it("imports a server's README snippet with --file, and asks for the token it only stands in for", async () => {
    const snippet = join(root, 'snippet.json');
    const notes = {
      command: process.execPath,
      args: [FIXTURE, '--scenario', 'basic', '--name', 'notes'],
    };
    const mcpServers = { notes: { ...notes, env: { NOTES_TOKEN: '<YOUR_TOKEN>' } } };
    writeFileSync(snippet, JSON.stringify({ mcpServers }));
    // Handed to `config import`, it is named for what it is.
    const wrong = await coffer('config', 'import', snippet);
    expect(wrong.code).toBe(2);
    expect(wrong.stderr).toContain(
      `(import its servers with: coffer agents import claude-desktop --file ${snippet})`,
    );
    const run = await coffer('agents', 'import', 'claude-desktop', '--file', snippet);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toContain(`${snippet} (read as Claude Desktop's format)`);
    expect(run.stdout).toContain(
      'note: env NOTES_TOKEN is a stand-in ("<YOUR_TOKEN>"), not a value: nothing is stored; set it before use',
    );
    expect(run.stderr).toContain('fix: coffer secrets set notes --env NOTES_TOKEN');
    const secrets = await daemonApi(cofferHome, '/secrets?server=notes');
    expect(secrets.body.secrets).toEqual([
      expect.objectContaining({ name: 'NOTES_TOKEN', stored: false }),
    ]);
    // The same text on stdin (`pbpaste | coffer agents import … --file -`): served already.
    const fromStdin = ['agents', 'import', 'claude-desktop', '--file', '-'];
    const piped = await cofferFed(JSON.stringify({ mcpServers }), ...fromStdin);
    expect(piped.code, piped.stderr).toBe(0);
    expect(piped.stdout).toContain("standard input (read as Claude Desktop's format)");
    expect(piped.stdout).toContain('= notes: nothing to add, Coffer already has it as "notes"');
    // No agent's file: nothing for install --replace to take out.
    expect(
      JSON.stringify(JSON.parse(readFileSync(join(cofferHome, 'agents', 'state.json'), 'utf8'))),
    ).not.toContain(snippet);
    expect((await coffer('mcp', 'remove', 'notes')).code).toBe(0);
  });

  it('reads the entries a README gives without their braces, as the UI paste box does', async () => {
    const memo = { command: process.execPath, args: [FIXTURE, '--scenario', 'basic'] };
    const fromStdin = ['agents', 'import', 'claude-desktop', '--file', '-'];
    const fragment = `\n  "memo": ${JSON.stringify(memo, null, 2)},\n`;
    const piped = await cofferFed(fragment, ...fromStdin);
    expect(piped.code, piped.stderr).toBe(0);
    expect((await coffer('mcp', 'get', 'memo')).code).toBe(0);
    // A mistake in it is reported where it is in the text given, not in a braced copy.
    const broken = await cofferFed('"memo": {"command": "node",, }', ...fromStdin);
    expect(broken.code).toBe(2);
    expect(broken.stderr).toContain('Cannot read standard input:1:28: property name expected');
    expect((await coffer('mcp', 'remove', 'memo')).code).toBe(0);
  });

  it('imports what it can of a file, then exits 2 naming the entries nobody can run', async () => {
    const fromStdin = ['agents', 'import', 'claude-desktop', '--file', '-'];
    const memo = { command: process.execPath, args: [FIXTURE, '--scenario', 'basic'] };
    const mixed = JSON.stringify({ mcpServers: { memo, broken: { args: ['x'] } } });
    const run = await cofferFed(mixed, ...fromStdin);
    expect(run.code).toBe(2);
    expect(run.stdout).toContain(
      '! broken: cannot import, the entry has neither a command nor a URL',
    );
    expect(run.stdout).toContain('Imported 1 of 2 entries into Coffer.');
    expect(run.stderr).toContain('"broken" cannot be imported');
    expect((await coffer('mcp', 'get', 'memo')).code).toBe(0);
    expect((await coffer('mcp', 'remove', 'memo')).code).toBe(0);
    // A file that holds no object at all is named for what it is.
    const nothing = await cofferFed('null', ...fromStdin);
    expect(nothing.code).toBe(2);
    expect(nothing.stderr).toContain(
      'Cannot read standard input:1:1: the file is not a JSON object',
    );
  });

  it('install --replace keeps an entry whose server Coffer has switched off', async () => {
    const windsurfFile = join(home, '.codeium', 'windsurf', 'mcp_config.json');
    mkdirSync(join(home, '.codeium', 'windsurf'), { recursive: true });
    const memo = { command: process.execPath, args: [FIXTURE, '--scenario', 'basic', '--x'] };
    writeFileSync(windsurfFile, JSON.stringify({ mcpServers: { memo } }, null, 2));
    const imported = await coffer('agents', 'import', 'windsurf');
    expect(imported.code, imported.stderr).toBe(0);
    expect((await coffer('mcp', 'disable', 'memo')).code).toBe(0);
    const install = await coffer('agents', 'install', 'windsurf', '--replace');
    expect(install.code, install.stderr).toBe(0);
    expect(install.stdout).toContain(
      '! keeping "memo": Coffer has "memo" switched off (coffer mcp enable memo, then install --replace again)',
    );
    const written = JSON.parse(readFileSync(windsurfFile, 'utf8')) as { mcpServers: object };
    expect(Object.keys(written.mcpServers).sort()).toEqual(['coffer', 'memo']);
    expect((await coffer('agents', 'uninstall', 'windsurf')).code).toBe(0);
    expect((await coffer('mcp', 'remove', 'memo')).code).toBe(0);
  });

  it('masks a credential a URL carries in what the import prints', async () => {
    const key = `${'sk-'}${'e2eURLkey0123456789abcdefghij'}`;
    const url = `https://mcp.example.com/api/mcp/s/${key}/mcp?api_key=9f8e7d6c5b4a`;
    const snippet = JSON.stringify({ mcpServers: { zap: { url } } });
    const dry = await cofferFed(
      snippet,
      'agents',
      'import',
      'claude-desktop',
      '--file',
      '-',
      '--dry-run',
    );
    expect(dry.code, dry.stderr).toBe(0);
    expect(dry.stdout).toContain('https://mcp.example.com/api/mcp/s/***/mcp?api_key=***');
    expect(dry.stdout + dry.stderr).not.toContain(key);
    expect(dry.stdout).not.toContain('9f8e7d6c5b4a');
  });
});
