import { describe, expect, it } from 'vitest';
import {
  effectivePolicy,
  isDestructive,
  parseToolPolicy,
} from '../../../src/domain/tool-policy.js';

const policies = { destructive: 'ask' as const, tools: new Map([['pinned', 'deny' as const]]) };

describe('tool policies', () => {
  it('calls a tool destructive only when it says so and does not also say read-only', () => {
    expect(isDestructive({ annotations: { destructiveHint: true } })).toBe(true);
    expect(isDestructive({ annotations: { destructiveHint: true, readOnlyHint: true } })).toBe(
      false,
    );
    expect(isDestructive({ annotations: { destructiveHint: 'yes' } })).toBe(false);
    expect(isDestructive({ annotations: null })).toBe(false);
    expect(isDestructive({})).toBe(false);
    expect(isDestructive(undefined)).toBe(false);
  });

  it("takes the tool's own policy first, then the destructive default, else allow", () => {
    const destructive = { annotations: { destructiveHint: true } };
    expect(effectivePolicy(policies, 'pinned', destructive)).toBe('deny');
    expect(effectivePolicy(policies, 'other', destructive)).toBe('ask');
    expect(effectivePolicy(policies, 'other', { annotations: { readOnlyHint: true } })).toBe(
      'allow',
    );
    expect(effectivePolicy({ ...policies, destructive: 'deny' }, 'other', destructive)).toBe(
      'deny',
    );
  });

  it('parses the three policies and refuses anything else with the list', () => {
    expect(parseToolPolicy('ask')).toBe('ask');
    expect(() => parseToolPolicy('ASK')).toThrow('must be one of allow, ask, deny');
    expect(() => parseToolPolicy(undefined)).toThrow(
      expect.objectContaining({ code: 'INVALID_INPUT' }),
    );
  });
});
