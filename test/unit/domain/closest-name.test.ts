import { describe, expect, it } from 'vitest';
import { closestName } from '../../../src/domain/closest-name.js';

const tools = ['read_file', 'write_file', 'move_file', 'list_directory'];

describe('the name a typo meant', () => {
  it('finds a name one or two edits away', () => {
    expect(closestName('write_fil', tools)).toBe('write_file');
    expect(closestName('wirte_file', tools)).toBe('write_file');
    expect(closestName('list_directroy', tools)).toBe('list_directory');
  });

  it('suggests nothing for a name that is not close to any', () => {
    expect(closestName('nosuch', tools)).toBeUndefined();
    expect(closestName('x', tools)).toBeUndefined();
    expect(closestName('write_file', [])).toBeUndefined();
  });

  it('takes the closest of several, the first of equally close ones', () => {
    expect(closestName('mve_file', tools)).toBe('move_file');
    expect(closestName('ab', ['ac', 'ad'])).toBe('ac');
  });
});
