import { describe, expect, it } from 'vitest';
import { openerFor } from '../../../src/cli/commands/ui-command.js';

describe('coffer ui: how the link is opened', () => {
  const url = 'http://127.0.0.1:8000/login?code=abc';

  it.each([
    ['linux', 'xdg-open', [url]],
    ['darwin', 'open', [url]],
    ['win32', 'cmd', ['/c', 'start', '""', url]],
  ] as const)('on %s uses %s', (platform, command, args) => {
    const opener = openerFor(platform, {});
    expect(opener.command).toBe(command);
    expect(opener.args(url)).toEqual(args);
  });

  it('prefers $BROWSER where the user set one', () => {
    const opener = openerFor('linux', { BROWSER: 'firefox' });
    expect(opener.command).toBe('firefox');
    expect(opener.args(url)).toEqual([url]);
    expect(openerFor('linux', { BROWSER: '  ' }).command).toBe('xdg-open');
  });
});
