import { describe, expect, it } from 'vitest';
import type { Server } from '../../../web/src/api/types.js';
import {
  argsFitLines,
  editedDefinition,
  formFromServer,
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
