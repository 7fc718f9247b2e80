import type { Server } from '../api/types.js';
import { Notice } from '../components/notice.js';
import { SignIn } from '../components/sign-in.js';
import { SignOut } from '../components/sign-out.js';
import { StateBadge } from '../components/state-badge.js';
import { Switch } from '../components/switch.js';
import { WhatToDo } from '../components/what-to-do.js';
import { formatCounts, target, timeOf } from '../format.js';
import { href } from '../router.js';
import { SHARED_HINT } from './server-form-model.js';

/** Name, state, what it runs, its counts, the enabled switch and the last error. */
export function ServerHeader(props: {
  readonly server: Server;
  /** Its resource templates, once listed: the Resources tab counts them too. */
  readonly templates?: number | undefined;
  readonly onEnable: (enabled: boolean) => void;
}) {
  const { server, templates, onEnable } = props;
  const { status } = server;
  return (
    <>
      <p className="crumbs">
        <a href={href.servers}>Servers</a> / {server.name}
      </p>
      <div className="page-head">
        <div>
          <h1 id="server-title">
            {server.name} <StateBadge state={status.state} enabled={server.enabled} />
          </h1>
          <p className="lede">
            <span className="transport">{server.transport}</span>{' '}
            {server.shared && (
              <>
                <span className="tag" title={SHARED_HINT}>
                  Shared by all agents
                </span>{' '}
              </>
            )}
            <code>{target(server)}</code>{' '}
            {server.signed_in === true && <SignOut name={server.name} />}
          </p>
          <p className="muted">{formatCounts(status.counts, templates)}</p>
        </div>
        <Switch visibleLabel checked={server.enabled} label="Enabled" onChange={onEnable} />
      </div>
      {status.state === 'needs-sign-in' && server.enabled && <SignIn name={server.name} />}
      {status.last_error !== null &&
        server.enabled &&
        status.state !== 'running' &&
        status.state !== 'needs-sign-in' && (
          <Notice
            tone="error"
            title={`Last error (${status.last_error.code}) at ${timeOf(status.last_error.at)}`}
          >
            {status.last_error.message}
            <WhatToDo hint={status.last_error.hint} />
          </Notice>
        )}
    </>
  );
}
