import { describe, expect, it } from 'vitest';
import { capabilityKinds } from '../../../src/gateway/capability-kinds.js';
import { itemByKey } from '../../../src/gateway/list-index.js';
import type { LoadedList } from '../../../src/gateway/list-loader.js';

const listOf = (items: LoadedList['items']): LoadedList => ({
  items,
  enabled: new Map(),
  held: new Set(),
  supported: true,
});

describe('itemByKey', () => {
  const tools = capabilityKinds.tool;
  const resources = capabilityKinds.resource;

  it('finds an item by its key, the first of two that share it, and nothing for a miss', () => {
    const first = { name: 'echo', description: 'first' };
    const list = listOf([{ name: 'add' }, first, { name: 'echo', description: 'second' }]);
    expect(itemByKey(list, tools, 'echo')).toBe(first);
    expect(itemByKey(list, tools, 'add')).toEqual({ name: 'add' });
    expect(itemByKey(list, tools, 'nope')).toBeUndefined();
  });

  it('keys by the kind asked for, and a reloaded list is indexed afresh', () => {
    const resource = { uri: 'file:///a', name: 'a' };
    const list = listOf([resource]);
    expect(itemByKey(list, resources, 'file:///a')).toBe(resource);
    expect(itemByKey(list, tools, 'a')).toBe(resource);
    const reloaded = listOf([{ uri: 'file:///b', name: 'b' }]);
    expect(itemByKey(reloaded, resources, 'file:///a')).toBeUndefined();
    expect(itemByKey(reloaded, resources, 'file:///b')).toEqual({ uri: 'file:///b', name: 'b' });
  });
});
