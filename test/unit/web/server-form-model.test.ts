import { describe, expect, it } from 'vitest';
import type { Server } from '../../../web/src/api/types.js';
import {
  argsFitLines,
  editedDefinition,
  formFromServer,
  pairErrors,
} from '../../../web/src/pages/server-form-model.js';

const script = 'process.argv.length = 2;\nawait import("./server.js");';

const server: Server = {
  name: 'inline',
  transport: 'stdio',
  command: 'node',
  args: ['--input-type=module', '-e', script, '', '  padded  '],
  env: { MODE: 'x' },
  headers: {},
  secret_env: [],
  secret_headers: ['X-Api-Key'],
  enabled: true,
  auto_enable_new_capabilities: true,
  shared: false,
  status: { state: 'idle', last_error: null, counts: null },
};

describe('the edit form', () => {
  it('sends only the fields the user changed, so arguments it cannot show stay as they were', () => {
    const initial = formFromServer(server, []);
    const edited = { ...initial, env: [...initial.env, { name: 'LOG_LEVEL', value: 'debug' }] };
    expect(editedDefinition(edited, initial)).toEqual({ env: { MODE: 'x', LOG_LEVEL: 'debug' } });
    expect(editedDefinition(initial, initial)).toEqual({});
  });

  it('sends the arguments as lines once the user changed them', () => {
    const plain = formFromServer({ ...server, args: ['a.js'] }, []);
    const edited = { ...plain, args: 'a.js\n --verbose \n\n' };
    expect(editedDefinition(edited, plain)).toEqual({ args: ['a.js', '--verbose'] });
  });

  it('shows the arguments as not editable when a line break, a blank or padding is in one', () => {
    expect(formFromServer(server, []).argsFit).toBe(false);
    expect(argsFitLines(['-y', '@scope/server', '--port=3'])).toBe(true);
    for (const odd of [['-e', 'a\nb'], ['--x', ''], [' padded']])
      expect(argsFitLines(odd)).toBe(false);
  });
});

describe('the rows of names and values', () => {
  const form = formFromServer({ ...server, env: {} }, []);
  const rows = (...pairs: [string, string][]) => pairs.map(([name, value]) => ({ name, value }));

  it('refuses a value without a name and a name given twice, which saving would lose', () => {
    expect(pairErrors({ ...form, env: rows(['A', '1'], ['', 'orphan']) })).toEqual({
      env: 'Row 2 has a value but no name: name it, or remove the row',
    });
    expect(pairErrors({ ...form, env: rows(['DUP', '1'], [' DUP ', '2']) })).toEqual({
      env: 'DUP is given twice: keep one row of it',
    });
    expect(pairErrors({ ...form, secrets: rows(['T', ''], ['T', '']) })).toEqual({
      secrets: 'T is given twice: keep one row of it',
    });
  });

  it('lets empty rows and the other transport rows pass', () => {
    expect(pairErrors({ ...form, env: rows(['A', '1'], ['', '']) })).toEqual({});
    expect(pairErrors({ ...form, headers: rows(['X', '1'], ['X', '2']) })).toEqual({});
  });
});
