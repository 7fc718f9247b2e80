import type { DoctorServer } from '../../api/types.js';
import { StateBadge } from '../../components/state-badge.js';
import { duration, timeOf } from '../../format.js';
import { href } from '../../router.js';

function Command({ server }: { server: DoctorServer }) {
  if (server.command === null) return <span className="muted">Remote: nothing to run</span>;
  return (
    <div>
      <code>{server.command}</code>
      {server.command_path === null ? (
        <span className="doctor-missing">not found</span>
      ) : (
        server.command_path !== server.command && (
          <span className="doctor-resolved">
            → <code>{server.command_path}</code>
          </span>
        )
      )}
    </div>
  );
}

/** Per server: what it runs and whether that is found, how it last started, its last error. */
export function DoctorServers({ servers }: { servers: readonly DoctorServer[] }) {
  if (servers.length === 0)
    return (
      <p className="muted">
        No server registered yet. <a href={href.newServer}>Add one</a>.
      </p>
    );
  return (
    <table className="activity doctor-servers">
      <thead>
        <tr>
          <th scope="col">Server</th>
          <th scope="col">State</th>
          <th scope="col">Command</th>
          <th scope="col">Last start</th>
          <th scope="col">Last error</th>
        </tr>
      </thead>
      <tbody>
        {servers.map((server) => (
          <tr key={server.name}>
            <td data-label="Server">
              {/* One child per cell: on a narrow screen the cell is a label | value grid. */}
              <span>
                <a href={href.server(server.name)}>{server.name}</a>{' '}
                <span className="transport">{server.transport}</span>
              </span>
            </td>
            <td data-label="State">
              <span>
                <StateBadge state={server.state} enabled={server.enabled} />
              </span>
            </td>
            <td data-label="Command" className="doctor-command">
              <Command server={server} />
            </td>
            <td data-label="Last start" className="nowrap">
              {server.started_at === null ? (
                <span className="muted">Not started yet</span>
              ) : (
                <span>
                  {timeOf(server.started_at)}
                  {server.start_ms !== null && (
                    <span className="muted"> · took {duration(server.start_ms)}</span>
                  )}
                </span>
              )}
            </td>
            <td data-label="Last error">
              {server.last_error === null ? (
                <span className="muted">—</span>
              ) : (
                <span>
                  <span className="outcome-error">{server.last_error.message}</span>{' '}
                  <code className="muted">{server.last_error.code}</code>
                </span>
              )}
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
