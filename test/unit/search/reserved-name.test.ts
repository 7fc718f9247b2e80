import { describe, expect, it } from 'vitest';
import { assertServerName, serverNameProblem } from '../../../src/domain/naming.js';
import { CALL_TOOL, SEARCH_TOOL } from '../../../src/gateway/builtin-tools.js';

describe('the reserved server name', () => {
  it('refuses "coffer", saying it belongs to the built-in tools', () => {
    expect(serverNameProblem('coffer')).toMatch(/reserved for Coffer's built-in tools/);
    expect(() => assertServerName('coffer')).toThrow(/Invalid server name "coffer"/);
    expect(serverNameProblem('coffer-files')).toBeUndefined();
  });

  it('is the prefix of every built-in tool, so no upstream tool can take their names', () => {
    expect(SEARCH_TOOL).toBe('coffer__search_tools');
    expect(CALL_TOOL).toBe('coffer__call_tool');
  });
});
