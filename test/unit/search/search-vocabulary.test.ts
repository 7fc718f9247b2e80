import { describe, expect, it } from 'vitest';
import { everydayWords, toolWords } from '../../../src/gateway/search-vocabulary.js';

describe('search vocabulary', () => {
  it("gives a tool the everyday words for its own, in any of the words' forms", () => {
    const words = everydayWords('create_directory').split(' ');
    expect(words).toEqual(expect.arrayContaining(['make', 'new', 'folder']));
    expect(everydayWords('Creates directories').split(' ')).toEqual(
      expect.arrayContaining(['make', 'folder']),
    );
    expect(everydayWords('memory').split(' ')).toContain('remember');
  });

  it('reads the everyday words of a query as tool words', () => {
    expect(toolWords('make a new folder').split(' ')).toEqual(
      expect.arrayContaining(['create', 'directory']),
    );
    expect(toolWords('remember that Alice works at Acme').split(' ')).toEqual(
      expect.arrayContaining(['add', 'memory']),
    );
    expect(toolWords('ship my PR').split(' ')).toEqual(expect.arrayContaining(['merge', 'pull']));
  });

  it('relates the tool words of one entry to each other, but not a word to itself', () => {
    expect(toolWords('remove').split(' ')).toContain('delete');
    expect(toolWords('database').split(' ')).toContain('sql');
    expect(toolWords('database').split(' ')).not.toContain('database');
    expect(everydayWords('delete_entities').split(' ')).toContain('remove');
  });

  it('lists each word once and nothing for words it does not know', () => {
    const words = toolWords('folder folders directory dir').split(' ');
    expect(new Set(words).size).toBe(words.length);
    expect(everydayWords('xyzzy plugh')).toBe('');
    expect(toolWords('')).toBe('');
  });
});
