import { api, errorText } from '../../api/client.js';
import type { DoctorReport } from '../../api/types.js';
import { Loading, Notice } from '../../components/notice.js';
import { useReloadOn } from '../../live/events.js';
import { useLoad } from '../../use-load.js';
import { DoctorAgents } from './doctor-agents.js';
import { DoctorFindings } from './doctor-findings.js';
import { DoctorServers } from './doctor-servers.js';
import { DoctorSetup } from './doctor-setup.js';

/**
 * The daemon's `coffer doctor` (GET /doctor): what is broken and how to fix it first,
 * then each server, the agents Coffer is installed in, and the setup the report is based
 * on. The daemon reads the agents' files from the home folder; `coffer doctor` run in a
 * project also checks that project's files.
 */
export function DoctorPage() {
  const report = useLoad(() => api.get<DoctorReport>('/doctor'), 'doctor');
  const data = report.data;
  // A server added, removed, edited or changing state changes the report.
  useReloadOn(
    (event) => event.type !== 'activity.recorded' && event.type !== 'capability.toggled',
    report.reload,
  );
  return (
    <section aria-labelledby="doctor-title">
      <div className="page-head">
        <div>
          <h1 id="doctor-title">Doctor</h1>
          <p className="lede">
            What is set up, what is broken and what to type to fix it: the report of{' '}
            <code>coffer doctor</code>: servers, agents and setup.
          </p>
        </div>
        <button className="button" type="button" onClick={report.reload} disabled={report.loading}>
          {report.loading ? 'Checking…' : 'Check again'}
        </button>
      </div>
      {data === undefined && report.error === undefined && (
        <Loading label="Checking every server's command, state and secrets…" />
      )}
      {report.error !== undefined && (
        <Notice tone="error" title="Could not get the doctor's report">
          {errorText(report.error)}
        </Notice>
      )}
      {data !== undefined && (
        <>
          <DoctorFindings
            findings={data.findings}
            servers={new Set(data.servers.map((server) => server.name))}
          />
          <h2 className="section-title">Servers</h2>
          <DoctorServers servers={data.servers} />
          <h2 className="section-title">Agents</h2>
          <DoctorAgents agents={data.agents} />
          <h2 className="section-title">Setup</h2>
          <DoctorSetup report={data} />
        </>
      )}
    </section>
  );
}
