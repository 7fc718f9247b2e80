import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  COFFER_BIN,
  createCliHarness,
  FIXTURE,
  processesWith,
  runProgram,
  type CliHarness,
  type RunResult,
} from './cli-harness.js';

/**
 * A local server named by a path relative to the folder the user is in: `coffer mcp add`
 * typed there, `coffer mcp add-json`, and a project's own agent file. The daemon starts
 * servers from the home folder, so each must run where it was written, or it never starts.
 */
let cli: CliHarness;
/** The folder the fixture server is in: `node fake-mcp-server.js` names it from there. */
const folder = dirname(FIXTURE);
const file = basename(FIXTURE);
let project: string;

beforeAll(() => {
  cli = createCliHarness();
  project = mkdtempSync(join(tmpdir(), 'coffer-e2e-project-'));
});
afterAll(async () => {
  await cli.close();
  rmSync(project, { recursive: true, force: true });
  expect(processesWith(cli.marker)).toEqual([]);
});

/** `coffer …` run from a folder removed under it, as a shell left in a deleted folder runs it. */
function runInDeletedFolder(...args: string[]): Promise<RunResult> {
  const gone = join(project, 'gone');
  const script = 'mkdir "$0" && cd "$0" && rmdir "$0" && exec "$@"';
  return runProgram('sh', ['-c', script, gone, process.execPath, COFFER_BIN, ...args], {
    env: cli.env,
  });
}

async function answers(name: string): Promise<void> {
  const tested = await cli.run('mcp', 'test', name);
  expect(tested.stderr, `coffer mcp test ${name}`).toBe('');
  expect(tested.stdout).toMatch(new RegExp(`^"${name}" answered in \\d+ ms: \\d+ tools`));
}

async function cwdOf(name: string): Promise<string | undefined> {
  const shown = await cli.run('mcp', 'show', name, '--json');
  return (JSON.parse(shown.stdout) as { server: { cwd?: string } }).server.cwd;
}

describe('relative paths of a local server', () => {
  it('coffer mcp add runs the server in the folder it was typed in, and says so', async () => {
    const added = await cli.runIn(
      folder,
      'mcp',
      'add',
      'here',
      '--',
      'node',
      file,
      '--name',
      cli.marker,
    );
    expect(added.code, added.stderr).toBe(0);
    expect(added.stdout).toBe(
      `Added server "here" (stdio: node ${file} --name ${cli.marker})\n` +
        `  runs in ${folder}, where its relative path "${file}" is\n`,
    );
    expect(await cwdOf('here')).toBe(folder);
    await answers('here');
  });

  it('coffer mcp add-json does the same for the entry it is given', async () => {
    const entry = JSON.stringify({ command: 'node', args: [`./${file}`, '--name', cli.marker] });
    const added = await cli.runIn(folder, 'mcp', 'add-json', 'pasted', entry);
    expect(added.code, added.stderr).toBe(0);
    expect(added.stdout).toContain(`runs in ${folder}, where its relative path "./${file}" is`);
    expect(await cwdOf('pasted')).toBe(folder);
    await answers('pasted');
  });

  it("a project's agent file is imported to run in the project", async () => {
    mkdirSync(join(project, '.cursor'));
    mkdirSync(join(project, 'server'));
    writeFileSync(join(project, 'server', 'main.mjs'), `import ${JSON.stringify(FIXTURE)};\n`);
    const servers = { proj: { command: 'node', args: ['server/main.mjs', '--name', cli.marker] } };
    writeFileSync(join(project, '.cursor', 'mcp.json'), JSON.stringify({ mcpServers: servers }));
    const imported = await cli.runIn(project, 'agents', 'import', 'cursor', '--scope', 'project');
    expect(imported.code, imported.stderr).toBe(0);
    expect(imported.stdout).toContain(
      `runs in ${project}, where its relative path "server/main.mjs" is`,
    );
    expect(await cwdOf('proj')).toBe(project);
    await answers('proj');
  });

  it("a VS Code project file's ${workspaceFolder} is read as the project", async () => {
    mkdirSync(join(project, '.vscode'));
    const args = ['${workspaceFolder}/server/main.mjs', '--name', cli.marker];
    const servers = { vs: { type: 'stdio', command: 'node', args } };
    writeFileSync(join(project, '.vscode', 'mcp.json'), JSON.stringify({ servers }));
    const imported = await cli.runIn(project, 'agents', 'import', 'vscode', '--scope', 'project');
    expect(imported.code, imported.stderr).toBe(0);
    expect(imported.stdout).toContain(
      `read \${workspaceFolder} as "${project}", as the agent would`,
    );
    const shown = await cli.run('mcp', 'show', 'vs', '--json');
    const { server } = JSON.parse(shown.stdout) as { server: { args: string[] } };
    expect(server.args[0]).toBe(join(project, 'server', 'main.mjs'));
    await answers('vs');
  });

  it('a command of absolute paths keeps what was typed, and no cwd', async () => {
    const added = await cli.runIn(
      folder,
      'mcp',
      'add',
      'abs',
      '--',
      'node',
      FIXTURE,
      '--name',
      cli.marker,
    );
    expect(added.stdout).toBe(`Added server "abs" (stdio: node ${FIXTURE} --name ${cli.marker})\n`);
    expect(await cwdOf('abs')).toBeUndefined();
  });

  it('a working directory that is not there is said at once, and as the reason it cannot start', async () => {
    const gone = join(project, 'moved-away');
    const added = await cli.run('mcp', 'add', 'moved', '--cwd', gone, '--', 'node', FIXTURE);
    expect(added.code).toBe(0);
    expect(added.stderr).toContain(
      `coffer: warning: moved: its working directory does not exist: ${gone}\n  fix: create it`,
    );
    const tested = await cli.run('mcp', 'test', 'moved');
    // Node's spawn says ENOENT as for a missing command; the folder is what is missing.
    expect(tested.stderr).toContain(
      `could not start: its working directory does not exist: ${gone}`,
    );
    expect(tested.stderr).not.toContain('command not found');
    await cli.run('mcp', 'remove', 'moved');
  });

  it('from a folder deleted under the shell: add keeps the command as typed, agents say what to do', async () => {
    const added = await runInDeletedFolder('mcp', 'add', 'orphan', '--', 'node', 'main.js');
    expect(added.code, added.stderr).toBe(0);
    expect(added.stdout).toBe('Added server "orphan" (stdio: node main.js)\n');
    const listed = await runInDeletedFolder('agents', 'list');
    expect(listed.code).toBe(2);
    expect(listed.stderr).toBe(
      "coffer: The current folder no longer exists (cd to a folder that exists and run the command again: a project's own files are read from the current folder)\n",
    );
  });
});
