import { describe, expect, it } from 'vitest';
import { formatCounts } from '../../../web/src/format.js';

describe('the counts a server page and the server list show', () => {
  it('says every kind listed, templates only when there are some', () => {
    expect(formatCounts({ tools: 17, prompts: 1, resources: 1, resource_templates: 1 })).toBe(
      '17 tools · 1 prompt · 1 resource · 1 resource template',
    );
    expect(formatCounts({ tools: 2, prompts: 0, resources: 0, resource_templates: 0 })).toBe(
      '2 tools · 0 prompts · 0 resources',
    );
  });

  it('leaves out a kind not listed yet (an agent that listed tools only): unknown is not 0', () => {
    expect(formatCounts({ tools: 17 })).toBe('17 tools');
    expect(formatCounts({})).toBe('Not listed yet');
    expect(formatCounts(null)).toBe('Not listed yet');
  });
});
