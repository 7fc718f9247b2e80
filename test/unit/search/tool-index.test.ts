import { describe, expect, it } from 'vitest';
import { resolve } from 'node:path';
import { ToolIndex } from '../../../src/gateway/tool-index.js';
import { buildIndex, fixturePaths, loadCatalogs } from '../../fixtures/tool-search/search-eval.js';

const tool = (name: string, description: string, properties: Record<string, unknown> = {}) => ({
  name,
  description,
  inputSchema: { type: 'object', properties },
});

const files = [
  tool('files__read_file', 'Read the complete contents of a file', {
    path: { type: 'string', description: 'Where the file is' },
  }),
  tool('files__write_file', 'Create a new file or overwrite one'),
  tool('files__list_directory', 'List the entries of a directory'),
];
const issues = [
  tool('tracker__create_issue', 'Open a new issue in a repository', {
    title: { type: 'string' },
    labels: { type: 'array', items: { type: 'string', description: 'A label name' } },
  }),
  tool('tracker__merge_pull_request', 'Merge a pull request'),
];

function index(): ToolIndex {
  const built = new ToolIndex();
  built.setServer('files', files);
  built.setServer('tracker', issues);
  return built;
}

const names = (built: ToolIndex, query: string, server?: string) =>
  built.search(query, { limit: 5, ...(server === undefined ? {} : { server }) }).map((h) => h.name);

describe('ToolIndex', () => {
  it('ranks tools by name, description and parameters', () => {
    const built = index();
    expect(names(built, 'read a file')[0]).toBe('files__read_file');
    expect(names(built, 'open an issue')[0]).toBe('tracker__create_issue');
    expect(names(built, 'merging pull requests')[0]).toBe('tracker__merge_pull_request');
    // Nested parameter descriptions count too.
    expect(names(built, 'label')).toContain('tracker__create_issue');
  });

  it('finds tools from the words people use rather than their own (issue 19)', () => {
    const real = buildIndex(
      loadCatalogs(fixturePaths(resolve(import.meta.dirname, '../../..')).catalogs),
    );
    expect(names(real, 'make a new folder')).toContain('filesystem__create_directory');
    const remember = names(real, 'remember that Alice works at Acme');
    expect(remember).toContain('memory__create_entities');
    expect(remember).toContain('memory__add_observations');
    const small = index();
    expect(names(small, 'show what is in a folder')[0]).toBe('files__list_directory');
    expect(names(small, 'report a bug')[0]).toBe('tracker__create_issue');
  });

  it('keeps matches through everyday words within the requested server', () => {
    expect(names(index(), 'make a new folder', 'tracker')).not.toContain('files__list_directory');
    expect(names(index(), 'ship the PR', 'files')).toEqual([]);
  });

  it('returns what a model needs to call the tool', () => {
    const [hit] = index().search('read file', { limit: 1 });
    expect(hit).toMatchObject({
      name: 'files__read_file',
      server: 'files',
      description: 'Read the complete contents of a file',
      inputSchema: { type: 'object' },
    });
    expect(hit?.score).toBeGreaterThan(0);
  });

  it('honours limit and server', () => {
    const built = index();
    expect(built.search('file directory issue request', { limit: 2 })).toHaveLength(2);
    expect(names(built, 'file issue', 'tracker')).toEqual(['tracker__create_issue']);
    expect(names(built, 'nothing matches xyzzy')).toEqual([]);
  });

  it('re-indexes one server when its list changes, and skips an unchanged one', () => {
    const built = index();
    const source = {};
    // The same tools from a reloaded list (every TTL) are not re-indexed.
    expect(built.setServer('files', [...files], source)).toBe(false);
    const changed = files.slice(1);
    expect(built.setServer('files', changed, source)).toBe(false); // same source: not even read
    expect(built.setServer('files', changed, {})).toBe(true);
    expect(names(built, 'read the contents of a file')).not.toContain('files__read_file');
    expect(names(built, 'merge pull request')).toContain('tracker__merge_pull_request');
    expect(built.size).toBe(4);
  });

  it('drops servers that are gone', () => {
    const built = index();
    built.retainServers(new Set(['tracker']));
    expect(names(built, 'file')).toEqual([]);
    built.removeServer('tracker');
    expect(built.size).toBe(0);
  });

  it('indexes a name listed twice once, and ignores items without a name', () => {
    const built = new ToolIndex();
    built.setServer('a', [files[0]!, files[0]!, { description: 'no name' }]);
    expect(built.size).toBe(1);
  });
});
