import { useMemo, useSyncExternalStore } from 'react';

/**
 * Routes live in the hash (#/servers/files): the daemon serves one page at `/`, and no
 * UI path can collide with its own paths such as /servers/<name>/mcp.
 */
export type Route =
  | { readonly page: 'servers' }
  | { readonly page: 'new-server' }
  | { readonly page: 'server'; readonly name: string }
  | { readonly page: 'edit-server'; readonly name: string }
  | { readonly page: 'activity'; readonly server?: string }
  | { readonly page: 'agents' }
  | { readonly page: 'secrets' }
  | { readonly page: 'budget' }
  | { readonly page: 'doctor' }
  | { readonly page: 'not-found'; readonly path: string };

export function parseRoute(hash: string): Route {
  const path = hash.replace(/^#/, '') || '/';
  const [pathname = '/', query = ''] = path.split('?');
  const parts = pathname.split('/').filter(Boolean).map(decodeURIComponent);
  if (parts.length === 0 || (parts.length === 1 && parts[0] === 'servers'))
    return { page: 'servers' };
  if (parts.length === 1 && parts[0] === 'agents') return { page: 'agents' };
  if (parts.length === 1 && parts[0] === 'secrets') return { page: 'secrets' };
  if (parts.length === 1 && parts[0] === 'context') return { page: 'budget' };
  if (parts.length === 1 && parts[0] === 'doctor') return { page: 'doctor' };
  // Not under servers/: every name there is a server's, `new` included.
  if (parts.length === 1 && parts[0] === 'add-server') return { page: 'new-server' };
  if (parts[0] === 'activity') {
    const server = new URLSearchParams(query).get('server');
    return server === null ? { page: 'activity' } : { page: 'activity', server };
  }
  if (parts[0] === 'servers' && parts[1] !== undefined) {
    if (parts.length === 2) return { page: 'server', name: parts[1] };
    if (parts.length === 3 && parts[2] === 'edit') return { page: 'edit-server', name: parts[1] };
  }
  return { page: 'not-found', path: pathname };
}

const SECTION_TITLES: Readonly<Record<string, string>> = {
  servers: 'Servers',
  'new-server': 'Add a server',
  agents: 'Agents',
  secrets: 'Secrets',
  budget: 'Context',
  doctor: 'Doctor',
  'not-found': 'Not found',
};

/** The tab's title: the page first, so several Coffer tabs (and the history) tell apart. */
export function titleOf(route: Route): string {
  const page =
    route.page === 'server'
      ? route.name
      : route.page === 'edit-server'
        ? `Edit ${route.name}`
        : route.page === 'activity'
          ? route.server === undefined
            ? 'Activity'
            : `Activity of ${route.server}`
          : (SECTION_TITLES[route.page] ?? 'Coffer');
  return `${page} · Coffer`;
}

export const href = {
  servers: '#/servers',
  newServer: '#/add-server',
  server: (name: string) => `#/servers/${encodeURIComponent(name)}`,
  editServer: (name: string) => `#/servers/${encodeURIComponent(name)}/edit`,
  agents: '#/agents',
  secrets: '#/secrets',
  budget: '#/context',
  doctor: '#/doctor',
  activity: (server?: string) =>
    server === undefined ? '#/activity' : `#/activity?server=${encodeURIComponent(server)}`,
};

export function navigate(to: string): void {
  window.location.hash = to;
}

function onHashChange(notify: () => void): () => void {
  window.addEventListener('hashchange', notify);
  return () => window.removeEventListener('hashchange', notify);
}

/**
 * The current route. An external store, not state set from an effect: a hash changed
 * between the first render and the effect's listener (a link followed while the page
 * mounts) would be missed, and the page would stay on the route it started on.
 */
export function useRoute(): Route {
  const hash = useSyncExternalStore(onHashChange, () => window.location.hash);
  // The same route while only a page's own parameters change (the Activity filters it
  // writes as they change): a new route moves focus to the page, away from the search box.
  const key = JSON.stringify(parseRoute(hash));
  return useMemo(() => JSON.parse(key) as Route, [key]);
}
