import type { DoctorAgent } from '../../api/types.js';
import { href } from '../../router.js';

/** Per agent Coffer is installed in: its config file, and whether its entry still runs. */
export function DoctorAgents({ agents }: { agents: readonly DoctorAgent[] | undefined }) {
  if (agents === undefined)
    return <p className="muted">The agents' files could not be checked: see the daemon's log.</p>;
  if (agents.length === 0)
    return (
      <p className="muted">
        Coffer is not installed in any agent yet. <a href={href.agents}>Install it</a>.
      </p>
    );
  return (
    <table className="activity doctor-agents">
      <thead>
        <tr>
          <th scope="col">Agent</th>
          <th scope="col">Config</th>
          <th scope="col">Coffer's entry</th>
        </tr>
      </thead>
      <tbody>
        {agents.map((agent) => (
          <tr key={`${agent.id} ${agent.config}`}>
            <td data-label="Agent">
              <span>{agent.name}</span>
            </td>
            <td data-label="Config">
              <code>{agent.config}</code>
            </td>
            <td data-label="Coffer's entry">
              {agent.shim_ok ? (
                <span>Runs the shim</span>
              ) : (
                <span className="doctor-missing">{agent.problem}</span>
              )}
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
