import { api } from '../api/client.js';
import type { DoctorFinding, DoctorReport } from '../api/types.js';
import { href } from '../router.js';
import { Notice } from './notice.js';
import { WhatToDo } from './what-to-do.js';

/**
 * The doctor's findings of some servers (of every server when none is named), with what
 * to do, where a page needs them at once (an import that just added servers, a server's
 * own page, the servers list). Best effort: a report that cannot be had shows nothing,
 * as the pages work without it.
 */
export async function findingsOf(
  codes: ReadonlySet<DoctorFinding['code']>,
  servers?: readonly string[],
): Promise<DoctorFinding[]> {
  if (servers?.length === 0) return [];
  try {
    const report = await api.get<DoctorReport>('/doctor?agents=no');
    return report.findings.filter(
      (finding) =>
        codes.has(finding.code) && (servers === undefined || servers.includes(finding.subject)),
    );
  } catch {
    return [];
  }
}

export function FindingsNotice(props: {
  readonly title: string;
  readonly findings: readonly DoctorFinding[];
}) {
  return (
    <Notice tone="warning" title={props.title}>
      <ul>
        {props.findings.map((finding) => (
          <li key={`${finding.subject}:${finding.code}:${finding.message}`}>
            <a href={href.server(finding.subject)}>{finding.subject}</a>: {finding.message}
            <WhatToDo hint={finding.fix ?? undefined} />
          </li>
        ))}
      </ul>
    </Notice>
  );
}
