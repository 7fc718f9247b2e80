import { useEffect, useRef } from 'react';
import { Toasts } from './components/toasts.js';
import { LiveEvents, useLiveState } from './live/events.js';
import { ActivityPage } from './pages/activity-page.js';
import { AgentsPage } from './pages/agents/agents-page.js';
import { SecretsPage } from './pages/secrets-page.js';
import { BudgetPage } from './pages/budget-page.js';
import { DoctorPage } from './pages/doctor/doctor-page.js';
import { ServerDetailPage } from './pages/server-detail-page.js';
import { ServerFormPage } from './pages/server-form-page.js';
import { ServersPage } from './pages/servers-page.js';
import { href, titleOf, useRoute, type Route } from './router.js';
import { Notice } from './components/notice.js';

/** What a signed-out page shows above everything: what it shows is no longer current. */
function SignedOutNotice() {
  if (useLiveState() !== 'signed-out') return null;
  return (
    <Notice tone="error" title="This page is signed out of Coffer">
      The daemon no longer knows this browser session: it restarted, or the session expired. Run{' '}
      <code>coffer ui</code> in a terminal to sign in again; this page then updates by itself.
    </Notice>
  );
}

function LiveIndicator() {
  const state = useLiveState();
  const label = {
    connecting: 'Connecting…',
    live: 'Live',
    offline: 'Offline',
    'signed-out': 'Signed out',
  }[state];
  return (
    <span className={`live live-${state}`} title="Updates from the daemon arrive without reloading">
      <span className="live-dot" aria-hidden="true" />
      {label}
    </span>
  );
}

/** A page of one server is keyed by it: another server's page starts afresh, not with this one's state. */
function Page({ route }: { route: Route }) {
  switch (route.page) {
    case 'servers':
      return <ServersPage />;
    case 'new-server':
      return <ServerFormPage key="" />;
    case 'edit-server':
      return <ServerFormPage key={route.name} name={route.name} />;
    case 'server':
      return <ServerDetailPage key={route.name} name={route.name} />;
    case 'activity':
      return <ActivityPage {...(route.server === undefined ? {} : { server: route.server })} />;
    case 'agents':
      return <AgentsPage />;
    case 'secrets':
      return <SecretsPage />;
    case 'budget':
      return <BudgetPage />;
    case 'doctor':
      return <DoctorPage />;
    case 'not-found':
      return (
        <Notice title="There is no such page" action={<a href={href.servers}>Go to servers</a>}>
          Nothing lives at <code>{route.path}</code>.
        </Notice>
      );
  }
}

export function App() {
  const route = useRoute();
  const main = useRef<HTMLElement>(null);
  const section =
    route.page === 'activity' ||
    route.page === 'agents' ||
    route.page === 'secrets' ||
    route.page === 'budget' ||
    route.page === 'doctor'
      ? route.page
      : 'servers';

  // A new page moves focus to it, as a real navigation would, for keyboard and screen readers.
  useEffect(() => {
    document.title = titleOf(route);
    main.current?.focus({ preventScroll: true });
    window.scrollTo(0, 0);
  }, [route]);

  return (
    <LiveEvents>
      <Toasts>
        <a
          className="skip-link"
          href="#main"
          onClick={(e) => (e.preventDefault(), main.current?.focus())}
        >
          Skip to content
        </a>
        <header className="topbar">
          <a className="brand" href={href.servers}>
            <img src="/favicon.svg" alt="" width="24" height="24" />
            Coffer
          </a>
          <nav aria-label="Main">
            <a href={href.servers} aria-current={section === 'servers' ? 'page' : undefined}>
              Servers
            </a>
            <a href={href.agents} aria-current={section === 'agents' ? 'page' : undefined}>
              Agents
            </a>
            <a href={href.secrets} aria-current={section === 'secrets' ? 'page' : undefined}>
              Secrets
            </a>
            <a href={href.budget} aria-current={section === 'budget' ? 'page' : undefined}>
              Context
            </a>
            <a href={href.activity()} aria-current={section === 'activity' ? 'page' : undefined}>
              Activity
            </a>
            <a href={href.doctor} aria-current={section === 'doctor' ? 'page' : undefined}>
              Doctor
            </a>
          </nav>
          <LiveIndicator />
        </header>
        <main id="main" ref={main} tabIndex={-1}>
          <SignedOutNotice />
          <Page route={route} />
        </main>
      </Toasts>
    </LiveEvents>
  );
}
