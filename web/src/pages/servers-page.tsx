import { useRef } from 'react';
import { api, errorText, serverPath } from '../api/client.js';
import type { DoctorFinding, Server } from '../api/types.js';
import { findingsOf } from '../components/findings-notice.js';
import { Loading, Notice } from '../components/notice.js';
import { StateBadge } from '../components/state-badge.js';
import { Switch } from '../components/switch.js';
import { useToast } from '../components/toasts.js';
import { WhatToDo } from '../components/what-to-do.js';
import { formatCounts, target } from '../format.js';
import { useDaemonEvents } from '../live/events.js';
import { href } from '../router.js';
import { useLoad } from '../use-load.js';

const loadServers = async () => (await api.get<{ servers: Server[] }>('/servers')).servers;

/** Tools held back for review, linking the server page where they are reviewed. */
function HeldLink({ server }: { server: Server }) {
  const held = server.held_tools ?? 0;
  if (held === 0) return null;
  return (
    <a className="held-link" href={href.server(server.name)}>
      {held === 1 ? '1 tool' : `${held} tools`} changed — review
    </a>
  );
}

/** The daemon's own findings, said once above the list under these titles. */
const DAEMON_NOTICES: Partial<Record<DoctorFinding['code'], string>> = {
  DATABASE_RESTORED: "Coffer's database was damaged", // docs/RECOVERY.md
  DAEMON_OUTDATED: 'This page is newer than the daemon serving it',
  SNAPSHOT_FAILING: 'Coffer cannot keep the snapshot it would restore your servers from',
};

/**
 * The doctor's findings this page shows: what stops a server from starting, known before
 * it is started, beside the server; and the daemon's notices.
 */
const SHOWN: ReadonlySet<DoctorFinding['code']> = new Set([
  'COMMAND_NOT_FOUND',
  'CWD_NOT_FOUND',
  'SCRIPT_NOT_FOUND',
  'SECRET_MISSING',
  ...(Object.keys(DAEMON_NOTICES) as DoctorFinding['code'][]),
]);

/** Said until the server has a last error of its own (which then says why). */
function CannotStart({ findings }: { findings: readonly DoctorFinding[] }) {
  return findings.map((finding) => (
    <p className="last-error" key={`${finding.code}:${finding.message}`} title={finding.code}>
      Cannot start: {finding.message}
      <WhatToDo hint={finding.fix ?? undefined} />
    </p>
  ));
}

function ServerRow(props: {
  server: Server;
  problems: readonly DoctorFinding[];
  onToggle: (on: boolean) => void;
}) {
  const { server, problems, onToggle } = props;
  const { status } = server;
  return (
    <li className="server-row">
      <div className="server-main">
        <a className="server-name" href={href.server(server.name)}>
          {server.name}
        </a>
        <span className="transport">{server.transport}</span>
        <code className="server-target" title={target(server)}>
          {target(server)}
        </code>
      </div>
      <div className="server-state">
        <StateBadge state={status.state} enabled={server.enabled} />
        <span className="counts">{formatCounts(status.counts)}</span>
        <HeldLink server={server} />
        {status.last_error !== null && server.enabled && status.state !== 'running' && (
          <p className="last-error" title={status.last_error.code}>
            {status.last_error.message}
            <WhatToDo hint={status.last_error.hint} />
          </p>
        )}
        {status.last_error === null && server.enabled && <CannotStart findings={problems} />}
      </div>
      <Switch checked={server.enabled} label={`Enable ${server.name}`} onChange={onToggle} />
    </li>
  );
}

/** Every registered server: what it runs, how it is doing, and whether agents see it. */
export function ServersPage() {
  const servers = useLoad(loadServers, 'servers');
  const problems = useLoad(() => findingsOf(SHOWN), 'start problems');
  const toast = useToast();
  const pending = useRef<number | undefined>(undefined);

  // Bursts of events (a list touches every server) become one reload.
  useDaemonEvents((event) => {
    if (event.type === 'activity.recorded') return;
    window.clearTimeout(pending.current);
    pending.current = window.setTimeout(() => {
      servers.reload();
      problems.reload();
    }, 150);
  });

  const toggle = async (server: Server, enabled: boolean) => {
    servers.set((list) => list.map((s) => (s.name === server.name ? { ...s, enabled } : s)));
    try {
      await api.post(`${serverPath(server.name)}/${enabled ? 'enable' : 'disable'}`);
      toast(`${server.name} ${enabled ? 'enabled' : 'disabled'}`);
    } catch (error) {
      toast(errorText(error), 'error');
      servers.reload();
    }
  };

  return (
    <section aria-labelledby="servers-title">
      <div className="page-head">
        <div>
          <h1 id="servers-title">Servers</h1>
          <p className="lede">
            Every MCP server here is served to every agent through one endpoint.
          </p>
        </div>
        <a className="button primary" href={href.newServer}>
          Add server
        </a>
      </div>
      {(problems.data ?? []).map((finding) => {
        const title = DAEMON_NOTICES[finding.code];
        return title === undefined ? null : (
          <Notice key={finding.code} tone="warning" title={title}>
            {finding.message}
            <WhatToDo hint={finding.fix ?? undefined} />
          </Notice>
        );
      })}
      {servers.data === undefined && servers.error === undefined && (
        <Loading label="Loading servers…" />
      )}
      {servers.error !== undefined && servers.data === undefined && (
        <Notice
          tone="error"
          title="Could not load the servers"
          action={
            <button className="button" onClick={servers.reload}>
              Try again
            </button>
          }
        >
          {errorText(servers.error)}
        </Notice>
      )}
      {servers.data?.length === 0 && (
        <Notice
          title="No servers yet"
          action={
            <a className="button primary" href={href.newServer}>
              Add your first server
            </a>
          }
        >
          Add a stdio program or a remote MCP server, or import the ones your agents already use
          with <code>coffer agents import</code>.
        </Notice>
      )}
      {servers.data !== undefined && servers.data.length > 0 && (
        <ul className="server-list" aria-label="Servers">
          {servers.data.map((server) => (
            <ServerRow
              key={server.name}
              server={server}
              problems={(problems.data ?? []).filter((finding) => finding.subject === server.name)}
              onToggle={(on) => void toggle(server, on)}
            />
          ))}
        </ul>
      )}
    </section>
  );
}
