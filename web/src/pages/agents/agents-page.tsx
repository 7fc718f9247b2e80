import { useState } from 'react';
import { api, errorText } from '../../api/client.js';
import type { Agent, AgentLocation } from '../../api/types.js';
import { Loading, Notice } from '../../components/notice.js';
import { useDaemonEvents } from '../../live/events.js';
import { useLoad } from '../../use-load.js';
import { ChangePreview, type ChangeTarget } from './change-preview.js';
import { ImportPreview, type ImportTarget } from './import-preview.js';

type Open =
  | { readonly kind: 'change'; readonly target: ChangeTarget }
  | { readonly kind: 'import'; readonly target: ImportTarget };

const loadAgents = async () => (await api.get<{ agents: Agent[] }>('/agents')).agents;

/** The files worth showing: those that exist, else the one install would create. */
function shownLocations(agent: Agent): AgentLocation[] {
  const existing = agent.locations.filter((location) => location.exists);
  return existing.length > 0 ? existing : agent.locations.slice(0, 1);
}

/** "3 other servers", and whether an import has anything left to do ("all in Coffer"). */
function serverCount({ servers, to_import }: AgentLocation): string {
  const count = `${servers} other server${servers === 1 ? '' : 's'}`;
  if (servers === 0 || to_import === servers) return count;
  if (to_import === 0) return `${count}, ${servers === 1 ? 'in' : 'all in'} Coffer`;
  return `${count}, ${to_import} to import`;
}

function scopeText(location: AgentLocation): string {
  return location.label === undefined ? location.scope : `${location.scope}, ${location.label}`;
}

function LocationRow(props: {
  readonly agent: Agent;
  readonly location: AgentLocation;
  readonly onOpen: (open: Open) => void;
}) {
  const { agent, location, onOpen } = props;
  const base = { agent: agent.id, name: agent.name, scope: location.scope };
  const change = (kind: 'install' | 'uninstall') =>
    onOpen({ kind: 'change', target: { ...base, change: kind } });
  return (
    <li className="agent-location">
      <div className="agent-file">
        <span className="tag">{scopeText(location)}</span>
        <code title={location.path}>{location.path}</code>
        {!location.exists && <span className="muted"> (no file yet)</span>}
      </div>
      <div className="agent-state">
        {location.problem !== undefined ? (
          <span className="badge badge-error">Cannot read</span>
        ) : location.coffer_problem !== undefined ? (
          <span className="badge badge-error">Coffer entry broken</span>
        ) : location.coffer_installed ? (
          <span className="badge badge-running">
            <span className="badge-dot" aria-hidden="true" />
            Coffer installed
          </span>
        ) : (
          <span className="badge badge-idle">Coffer not installed</span>
        )}
        {location.exists && <span className="counts">{serverCount(location)}</span>}
        {location.problem !== undefined && <p className="last-error">{location.problem}</p>}
        {location.coffer_problem !== undefined && (
          <p className="last-error">
            {location.coffer_problem}: install again to point it at this Coffer
          </p>
        )}
      </div>
      {location.problem === undefined && (
        <div className="agent-actions">
          {location.to_import > 0 && (
            <button
              type="button"
              className="button"
              onClick={() => onOpen({ kind: 'import', target: base })}
            >
              Import…
            </button>
          )}
          {location.coffer_problem !== undefined && (
            <button type="button" className="button primary" onClick={() => change('install')}>
              Install again…
            </button>
          )}
          {location.coffer_installed ? (
            <button type="button" className="button" onClick={() => change('uninstall')}>
              Uninstall…
            </button>
          ) : (
            <button type="button" className="button primary" onClick={() => change('install')}>
              Install…
            </button>
          )}
        </div>
      )}
    </li>
  );
}

function sameTarget(open: Open | undefined, agent: Agent): boolean {
  return open !== undefined && open.target.agent === agent.id;
}

/**
 * Agents on this machine (`coffer agents list`): where each keeps its MCP servers and
 * whether Coffer is installed there, with import, install and uninstall previewed first.
 */
export function AgentsPage() {
  const agents = useLoad(loadAgents, 'agents');
  const [open, setOpen] = useState<Open>();
  // What is left to import depends on the servers Coffer has: one added or removed
  // elsewhere (the CLI, another window) changes it.
  useDaemonEvents((event) => {
    if (event.type === 'server.added' || event.type === 'server.removed') agents.reload();
  });
  const present = agents.data?.filter((agent) => agent.present) ?? [];
  const absent = agents.data?.filter((agent) => !agent.present) ?? [];
  const close = () => setOpen(undefined);

  return (
    <section aria-labelledby="agents-title">
      <div className="page-head">
        <div>
          <h1 id="agents-title">Agents</h1>
          <p className="lede">
            Import the servers an agent already has, then install Coffer in its place. Every change
            is previewed, backed up, and undone by uninstall.
          </p>
        </div>
      </div>
      {agents.data === undefined && agents.error === undefined && (
        <Loading label="Looking for agents…" />
      )}
      {agents.error !== undefined && (
        <Notice tone="error" title="Could not look for agents">
          {errorText(agents.error)}
        </Notice>
      )}
      {agents.data !== undefined && present.length === 0 && (
        <Notice title="No agent found on this machine">
          Coffer knows {absent.map((agent) => agent.name).join(', ')}.
        </Notice>
      )}
      {present.map((agent) => (
        <article key={agent.id} className="agent-card" aria-labelledby={`agent-${agent.id}`}>
          <h2 id={`agent-${agent.id}`}>
            {agent.name}{' '}
            <a className="muted small" href={agent.docs} target="_blank" rel="noreferrer">
              docs
            </a>
          </h2>
          <ul className="agent-locations">
            {shownLocations(agent).map((location) => (
              <LocationRow
                // One file can hold two scopes (Claude Code's user and local entries).
                key={`${location.scope} ${location.label ?? ''} ${location.path}`}
                agent={agent}
                location={location}
                onOpen={setOpen}
              />
            ))}
          </ul>
          {open !== undefined && sameTarget(open, agent) && open.kind === 'change' && (
            <ChangePreview
              key={`${open.target.change}:${open.target.scope}`}
              target={open.target}
              onDone={() => (close(), agents.reload())}
              onCancel={close}
            />
          )}
          {open !== undefined && sameTarget(open, agent) && open.kind === 'import' && (
            <ImportPreview
              key={`import:${open.target.scope}`}
              target={open.target}
              onDone={agents.reload}
              onCancel={close}
            />
          )}
        </article>
      ))}
      {absent.length > 0 && present.length > 0 && (
        <p className="muted">Not found here: {absent.map((agent) => agent.name).join(', ')}.</p>
      )}
    </section>
  );
}
