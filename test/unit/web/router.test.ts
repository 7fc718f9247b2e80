import { describe, expect, it } from 'vitest';
import { href, parseRoute } from '../../../web/src/router.js';

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
});
