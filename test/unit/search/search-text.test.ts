import { describe, expect, it } from 'vitest';
import { processTerm, stem, terms, tokenize } from '../../../src/gateway/search-text.js';

describe('search text', () => {
  it('splits identifiers the way people write the words', () => {
    expect(tokenize('create_or_update_file')).toEqual(['create', 'or', 'update', 'file']);
    expect(tokenize('listDirectoryWithSizes')).toEqual(['list', 'Directory', 'With', 'Sizes']);
    expect(tokenize('get-roots-list')).toEqual(['get', 'roots', 'list']);
    expect(tokenize('parseHTMLPage v2')).toEqual(['parse', 'HTML', 'Page', 'v2']);
  });

  it('maps the forms of a word onto one term', () => {
    const same = [
      ['file', 'files'],
      ['search', 'searching', 'searches'],
      ['create', 'created', 'creating', 'creation'],
      ['navigate', 'navigation'],
      ['repository', 'repositories'],
      ['issue', 'issues'],
      ['filter', 'filtering'],
      ['browse', 'browser'],
      ['map', 'mapping'],
    ];
    for (const forms of same)
      expect(new Set(forms.map(stem)), forms.join('/')).toHaveProperty('size', 1);
  });

  it('keeps short words, words with digits and words that only look plural', () => {
    for (const word of ['add', 'sql', 'gzip', 'v2', 'utf8', 'process', 'status', 'analysis'])
      expect(stem(word)).toBe(word);
  });

  it('drops words that say nothing about a tool', () => {
    expect(processTerm('the')).toBeNull();
    expect(processTerm('Please')).toBeNull();
    expect(terms('I want to use a tool that reads the Files')).toEqual(['read', 'file']);
  });
});
