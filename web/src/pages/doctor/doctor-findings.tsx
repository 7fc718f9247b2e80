import type { DoctorFinding } from '../../api/types.js';
import { CopyCode } from '../../components/copy-code.js';
import { plural } from '../../format.js';
import { href } from '../../router.js';

/** Broken first, then what is worth knowing; the daemon's order within each. */
function ordered(findings: readonly DoctorFinding[]): DoctorFinding[] {
  return [
    ...findings.filter((f) => f.level === 'fail'),
    ...findings.filter((f) => f.level !== 'fail'),
  ];
}

function verdict(findings: readonly DoctorFinding[]): { tone: string; title: string } {
  const fails = findings.filter((f) => f.level === 'fail').length;
  const warns = findings.length - fails;
  if (fails > 0)
    return {
      tone: 'fail',
      title: `Something is broken: ${plural(fails, 'problem')} to fix${warns > 0 ? `, ${warns} worth knowing` : ''}`,
    };
  if (warns > 0) return { tone: 'warn', title: `Working, with ${warns} worth knowing` };
  return { tone: 'ok', title: 'All good: nothing is broken' };
}

function Finding(props: {
  readonly finding: DoctorFinding;
  readonly servers: ReadonlySet<string>;
}) {
  const { finding, servers } = props;
  const fail = finding.level === 'fail';
  return (
    <li className={`finding finding-${finding.level}`}>
      <p className="finding-head">
        <span className="finding-level">{fail ? 'Broken' : 'Worth knowing'}</span>
        <code>{finding.code}</code>
        <span className="muted">
          {servers.has(finding.subject) ? (
            <a href={href.server(finding.subject)}>{finding.subject}</a>
          ) : (
            finding.subject
          )}
        </span>
      </p>
      <p className="finding-message">{finding.message}</p>
      {finding.fix !== null && (
        <div className="finding-fix">
          <span className="finding-fix-label">Fix</span>
          <CopyCode text={finding.fix} label={`Copy the fix for ${finding.subject}`} />
        </div>
      )}
    </li>
  );
}

/** What is broken and what to type, above everything else on the page. */
export function DoctorFindings(props: {
  readonly findings: readonly DoctorFinding[];
  readonly servers: ReadonlySet<string>;
}) {
  const { findings, servers } = props;
  const { tone, title } = verdict(findings);
  return (
    <section className={`doctor-verdict doctor-${tone}`} aria-labelledby="doctor-verdict">
      <h2 id="doctor-verdict">{title}</h2>
      {findings.length === 0 ? (
        <p>
          Every enabled server's command resolves, its secrets are stored and it is not failing.
        </p>
      ) : (
        <ul className="findings">
          {ordered(findings).map((finding, index) => (
            <Finding
              key={`${finding.code}-${finding.subject}-${index}`}
              finding={finding}
              servers={servers}
            />
          ))}
        </ul>
      )}
    </section>
  );
}
