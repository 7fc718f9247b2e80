import type { ReactNode } from 'react';
import type { DoctorReport } from '../../api/types.js';
import { timeOf } from '../../format.js';

function Fact({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className="doctor-fact">
      <dt>{label}</dt>
      <dd>{children}</dd>
    </div>
  );
}

/** The PATH as the folders it is searched in, in order: one long line is unreadable. */
function SearchPath({ path, platform }: { path: string | null; platform: string }) {
  if (path === null) return <span className="muted">None: the daemon has no PATH</span>;
  const folders = path.split(platform === 'win32' ? ';' : ':').filter(Boolean);
  return (
    <ol className="doctor-path">
      {folders.map((folder, index) => (
        <li key={`${index}-${folder}`}>
          <code>{folder}</code>
        </li>
      ))}
    </ol>
  );
}

/** Versions, the daemon, where secrets are kept and where commands are looked for. */
export function DoctorSetup({ report }: { report: DoctorReport }) {
  const { daemon, keychain } = report;
  return (
    <dl className="doctor-setup">
      <Fact label="Versions">
        Coffer {report.coffer_version} · Node {report.node_version} · {report.platform}
      </Fact>
      <Fact label="Daemon">
        Running, pid {daemon.pid}, port {daemon.port}, since {timeOf(daemon.started_at)}
      </Fact>
      <Fact label="Secrets">
        {keychain.backend === 'keychain' ? (
          'OS keychain'
        ) : (
          <>
            A file (mode 0600)
            {keychain.location !== undefined && (
              <>
                {' '}
                <code>{keychain.location}</code>
              </>
            )}
            {keychain.reason !== undefined && (
              <span className="doctor-reason">No OS keychain: {keychain.reason}</span>
            )}
          </>
        )}
      </Fact>
      <Fact label="Commands are searched in">
        <SearchPath path={report.search_path} platform={report.platform} />
      </Fact>
    </dl>
  );
}
