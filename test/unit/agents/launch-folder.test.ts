import { describe, expect, it } from 'vitest';
import {
  anchorLaunch,
  placeHere,
  placeOf,
  type LaunchFolder,
} from '../../../src/agents/launch-folder.js';
import { findAgent, planImport } from '../../../src/agents/index.js';
import type { AgentContext, ConfigLocation } from '../../../src/agents/types.js';

/** A project folder holding `files` (paths relative to it), and nothing else. */
function projectWith(...files: string[]): LaunchFolder {
  const dir = '/home/ann/project';
  const present = new Set(files.map((file) => `${dir}/${file}`.replace(/\/\.$/, '')));
  return { dir, exists: (path) => present.has(path) };
}

describe('anchorLaunch: a local server that names paths of the folder it was written in', () => {
  it('runs in that folder when an argument is a relative path that exists there', () => {
    const folder = projectWith('build/index.js');
    expect(anchorLaunch({ command: 'node', args: ['build/index.js'] }, folder)).toEqual({
      cwd: '/home/ann/project',
      note: 'runs in /home/ann/project, where its relative path "build/index.js" is',
    });
    expect(anchorLaunch({ command: 'node', args: ['./build/index.js'] }, folder)?.cwd).toBe(
      '/home/ann/project',
    );
  });

  it('takes "." (the folder itself), as `--repository .` means it', () => {
    const folder = projectWith('.');
    expect(
      anchorLaunch({ command: 'uvx', args: ['mcp-server-git', '--repository', '.'] }, folder)?.cwd,
    ).toBe('/home/ann/project');
  });

  it('takes a command with a separator (./run.sh), never a bare one found on the PATH', () => {
    expect(anchorLaunch({ command: './run.sh', args: [] }, projectWith('run.sh'))?.cwd).toBe(
      '/home/ann/project',
    );
    // A file named like the command in the folder is not what the shell would run.
    expect(anchorLaunch({ command: 'server', args: [] }, projectWith('server'))).toBeUndefined();
  });

  it('leaves absolute paths, packages, flags, URLs, ~ and placeholders as they are', () => {
    const folder = projectWith('@scope/pkg', '-y', 'x');
    const untouched = [
      ['/opt/server.js'],
      ['-y', '@scope/pkg-missing'],
      ['--flag'],
      ['https://example.com/x'],
      ['~/notes'],
      ['${workspaceFolder}/x'],
    ];
    for (const args of untouched)
      expect(anchorLaunch({ command: 'npx', args }, folder)).toBeUndefined();
    // A path that does not exist in the folder names nothing there either.
    expect(anchorLaunch({ command: 'node', args: ['missing.js'] }, folder)).toBeUndefined();
  });

  it('resolves a relative cwd in the folder, and keeps an absolute one', () => {
    expect(anchorLaunch({ command: 'node', args: [], cwd: 'server' }, projectWith())).toEqual({
      cwd: '/home/ann/project/server',
      note: 'its relative cwd "server" is /home/ann/project/server',
    });
    expect(
      anchorLaunch({ command: 'node', args: ['x'], cwd: '/srv' }, projectWith('x')),
    ).toBeUndefined();
  });
});

describe("placeOf: where a file's entries are written", () => {
  const context: AgentContext = {
    platform: 'linux',
    homeDir: '/home/ann',
    env: {},
    cwd: '/home/ann/project',
  };
  const at = (scope: ConfigLocation['scope']): ConfigLocation => ({
    scope,
    path: '/x/mcp.json',
    format: 'json',
    serversKey: ['mcpServers'],
  });

  it('is the project for project and local files, no folder for a user file', () => {
    expect(placeOf(at('project'), context).folder?.dir).toBe('/home/ann/project');
    expect(placeOf(at('local'), context).folder?.dir).toBe('/home/ann/project');
    expect(placeOf(at('user'), context)).toEqual({ homeDir: '/home/ann' });
    expect(placeHere(context).folder?.dir).toBe('/home/ann/project');
  });
});

describe('planImport with a folder', () => {
  const cursor = findAgent('cursor');
  const servers = { local: { command: 'node', args: ['build/index.js'] } };

  it('gives an entry naming a file of the project the project as its cwd, and says so', () => {
    const [item] = planImport(cursor, servers, {
      known: [],
      place: { folder: projectWith('build/index.js'), homeDir: '/home/ann' },
    });
    expect(item?.definition?.cwd).toBe('/home/ann/project');
    expect(item?.definition?.args).toEqual(['build/index.js']);
    expect(item?.notes).toContain(
      'runs in /home/ann/project, where its relative path "build/index.js" is',
    );
  });

  it('leaves the entry as written without a folder (a user file)', () => {
    const [item] = planImport(cursor, servers, { known: [] });
    expect(item?.definition?.cwd).toBeUndefined();
    expect(item?.notes.some((note) => note.startsWith('runs in'))).toBe(false);
  });
});

describe("planImport: VS Code's path variables, in the agents that fill them in", () => {
  const place = { folder: projectWith(), homeDir: '/home/ann' };
  const entry = {
    type: 'stdio',
    command: 'node',
    args: ['${workspaceFolder}/build/index.js', '--name', '${workspaceFolderBasename}'],
    cwd: '${userHome}${/}work',
    env: { TOKEN: '${input:token}', DATA: '${workspaceFolder}/data' },
  };

  it('reads them as the agent would in a project file, and says so', () => {
    const [item] = planImport(findAgent('vscode'), { mine: entry }, { known: [], place });
    expect(item?.definition).toMatchObject({
      args: ['/home/ann/project/build/index.js', '--name', 'project'],
      cwd: '/home/ann/work',
      env: { DATA: '/home/ann/project/data' },
      secret_env: ['TOKEN'],
    });
    expect(item?.notes).toContain(
      'read ${workspaceFolder} as "/home/ann/project", ${workspaceFolderBasename} as "project", ' +
        '${userHome} as "/home/ann", ${/} as "/", as the agent would',
    );
    // What the agent asks the user for is a secret Coffer asks for in turn.
    expect(item?.notes).toContain(
      'env TOKEN is filled in by the agent ("${input:token}"), which Coffer cannot do: nothing is stored; set it before use',
    );
  });

  it('keeps ${workspaceFolder} of a user file (whichever folder is open) as written', () => {
    const [item] = planImport(
      findAgent('cursor'),
      { mine: entry },
      {
        known: [],
        place: { homeDir: '/home/ann' },
      },
    );
    expect(item?.definition?.args[0]).toBe('${workspaceFolder}/build/index.js');
    expect(item?.definition?.cwd).toBe('/home/ann/work');
  });

  it('leaves them to agents that do not fill them in (Claude Code)', () => {
    const [item] = planImport(findAgent('claude-code'), { mine: entry }, { known: [], place });
    expect(item?.definition?.args[0]).toBe('${workspaceFolder}/build/index.js');
  });
});
