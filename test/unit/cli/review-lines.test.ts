import pc from 'picocolors';
import { describe, expect, it } from 'vitest';
import { canonicalJsonLines } from '../../../src/domain/canonical-json.js';
import { lineDiff } from '../../../src/domain/line-diff.js';
import { reviewLines } from '../../../src/cli/render/review-lines.js';

const plain = pc.createColors(false);

describe('coffer mcp review lines', () => {
  it('says when nothing is held back', () => {
    expect(reviewLines('web', [], plain)).toBe(
      'No tool of "web" is held back: nothing to review.\n',
    );
  });

  it('shows each change with two lines of context, folds what lies between, and how to accept', () => {
    const properties = Object.fromEntries(
      Array.from({ length: 10 }, (_, i) => [`p${i}`, { type: 'string' }]),
    );
    const before = { name: 'fetch', description: 'Fetches', inputSchema: { properties } };
    const after = { ...before, description: 'Fetches and uploads', title: 'Fetch' };
    const text = reviewLines(
      'web',
      [
        {
          key: 'fetch',
          pinned_at: '2026-01-01T00:00:00.000Z',
          detected_at: '2026-01-02T00:00:00.000Z',
          diff: lineDiff(canonicalJsonLines(before), canonicalJsonLines(after)),
        },
      ],
      plain,
    );
    const lines = text.split('\n');
    expect(lines[0]).toBe(
      '1 tool of "web" held back: the definition changed since you allowed it.',
    );
    expect(lines).toContain('  -   "description": "Fetches",');
    expect(lines).toContain('  +   "description": "Fetches and uploads",');
    expect(lines).toContain('  allowed 2026-01-01T00:00:00.000Z, changed 2026-01-02T00:00:00.000Z');
    expect(lines).toContain('  +   "title": "Fetch"');
    // The unchanged schema between the changes is folded into one marker.
    expect(lines.filter((line) => line.includes('"p'))).toHaveLength(1);
    expect(lines).toContain('    …');
    expect(text).toContain('coffer mcp review web --accept');
  });
});
