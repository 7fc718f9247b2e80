import { describe, expect, it } from 'vitest';
import { countsText, plural } from '../../../src/cli/render/count-words.js';

describe('count words', () => {
  it('says each count in the singular or the plural', () => {
    expect(plural(1, 'tool')).toBe('1 tool');
    expect(plural(0, 'tool')).toBe('0 tools');
    expect(countsText({ tools: 17, prompts: 1, resources: 0 })).toBe(
      '17 tools, 1 prompt, 0 resources',
    );
  });

  it('says the resource templates when there are some, and not before they were listed', () => {
    expect(countsText({ tools: 13, prompts: 4, resources: 7, resource_templates: 1 })).toBe(
      '13 tools, 4 prompts, 7 resources, 1 resource template',
    );
    expect(countsText({ tools: 2, prompts: 0, resources: 1, resource_templates: 0 })).toBe(
      '2 tools, 0 prompts, 1 resource',
    );
    expect(countsText({ tools: 2, prompts: 0, resources: 1 })).toBe(
      '2 tools, 0 prompts, 1 resource',
    );
  });

  it('leaves out a kind not listed yet: unknown is not 0', () => {
    expect(countsText({ tools: 17 })).toBe('17 tools');
    expect(countsText({ prompts: 0, resources: 2 })).toBe('0 prompts, 2 resources');
    expect(countsText({})).toBe('');
  });
});
