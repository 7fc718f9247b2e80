import { describe, expect, it } from 'vitest';
import { href, parseRoute, titleOf } from '../../../web/src/router.js';

describe('the UI routes', () => {
  it('opens a server named "new" as any other, and the Add form at a path of its own', () => {
    expect(parseRoute(href.server('new'))).toEqual({ page: 'server', name: 'new' });
    expect(parseRoute(href.editServer('new'))).toEqual({ page: 'edit-server', name: 'new' });
    expect(parseRoute(href.newServer)).toEqual({ page: 'new-server' });
  });

  it('reads the pages and the activity filter from the hash', () => {
    expect(parseRoute('')).toEqual({ page: 'servers' });
    expect(parseRoute(href.activity('a b'))).toEqual({ page: 'activity', server: 'a b' });
    expect(parseRoute('#/servers/x/y/z')).toEqual({ page: 'not-found', path: '/servers/x/y/z' });
  });

  it('titles each page, the page first', () => {
    const title = (hash: string) => titleOf(parseRoute(hash));
    expect(title('')).toBe('Servers · Coffer');
    expect(title(href.server('files'))).toBe('files · Coffer');
    expect(title(href.editServer('files'))).toBe('Edit files · Coffer');
    expect(title(href.newServer)).toBe('Add a server · Coffer');
    expect(title(href.activity())).toBe('Activity · Coffer');
    expect(title(href.activity('files'))).toBe('Activity of files · Coffer');
    expect(title(href.budget)).toBe('Context · Coffer');
    expect(title('#/nowhere')).toBe('Not found · Coffer');
  });
});
