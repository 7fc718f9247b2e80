import { describe, expect, it } from 'vitest';
import {
  capabilityObject,
  declares,
  firstUndeclared,
  neededCapabilities,
} from '../../../src/gateway/input-capabilities.js';

describe('neededCapabilities', () => {
  it('names the mode an elicitation asks for', () => {
    expect(neededCapabilities('elicitation/create', { mode: 'url', url: 'https://x' })).toEqual([
      'elicitation',
      'elicitation.url',
    ]);
    expect(neededCapabilities('elicitation/create', { mode: 'form' })).toEqual([
      'elicitation',
      'elicitation.form',
    ]);
    // No mode is form mode (2025-06-18 servers send none).
    expect(neededCapabilities('elicitation/create', { message: 'name?' })).toEqual([
      'elicitation',
      'elicitation.form',
    ]);
  });

  it('names the sampling features a request uses', () => {
    expect(neededCapabilities('sampling/createMessage', { maxTokens: 5 })).toEqual(['sampling']);
    expect(neededCapabilities('sampling/createMessage', { tools: [] })).toEqual([
      'sampling',
      'sampling.tools',
    ]);
    expect(neededCapabilities('sampling/createMessage', { toolChoice: { mode: 'auto' } })).toEqual([
      'sampling',
      'sampling.tools',
    ]);
    expect(neededCapabilities('sampling/createMessage', { includeContext: 'none' })).toEqual([
      'sampling',
    ]);
    expect(
      neededCapabilities('sampling/createMessage', { includeContext: 'thisServer', tools: [] }),
    ).toEqual(['sampling', 'sampling.tools', 'sampling.context']);
  });

  it('needs roots for roots/list, and nothing a client answers for other methods', () => {
    expect(neededCapabilities('roots/list', undefined)).toEqual(['roots']);
    expect(neededCapabilities('tools/call', { name: 'x' })).toBeUndefined();
  });
});

describe('declares', () => {
  it('reads an elicitation that names no mode as form mode only', () => {
    expect(declares({ elicitation: {} }, 'elicitation.form')).toBe(true);
    expect(declares({ elicitation: {} }, 'elicitation.url')).toBe(false);
  });

  it('reads the modes a client lists, and no other', () => {
    expect(declares({ elicitation: { url: {} } }, 'elicitation.form')).toBe(false);
    expect(declares({ elicitation: { url: {} } }, 'elicitation.url')).toBe(true);
    expect(declares({ elicitation: { form: {}, url: {} } }, 'elicitation.form')).toBe(true);
    expect(declares({ elicitation: { form: null, url: {} } }, 'elicitation.form')).toBe(false);
  });

  it('needs the capability itself, and each feature under it', () => {
    expect(declares({}, 'sampling')).toBe(false);
    expect(declares({ sampling: null }, 'sampling')).toBe(false);
    expect(declares({ sampling: {} }, 'sampling')).toBe(true);
    expect(declares({ sampling: {} }, 'sampling.tools')).toBe(false);
    expect(declares({ sampling: { tools: {} } }, 'sampling.tools')).toBe(true);
    expect(declares(undefined, 'roots')).toBe(false);
  });
});

describe('firstUndeclared and capabilityObject', () => {
  it('say what to declare, as a capabilities object', () => {
    const needs = neededCapabilities('elicitation/create', { mode: 'url' }) ?? [];
    expect(firstUndeclared({ elicitation: {} }, needs)).toBe('elicitation.url');
    expect(firstUndeclared({}, needs)).toBe('elicitation');
    expect(firstUndeclared({ elicitation: { url: {} } }, needs)).toBeUndefined();
    expect(capabilityObject('elicitation.url')).toEqual({ elicitation: { url: {} } });
    expect(capabilityObject('sampling')).toEqual({ sampling: {} });
  });
});
