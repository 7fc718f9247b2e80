import { useState } from 'react';
import { api, errorText } from '../../api/client.js';
import type { AgentImport, AgentImportItem, AgentScope, DoctorFinding } from '../../api/types.js';
import { FindingsNotice, findingsOf } from '../../components/findings-notice.js';
import { Loading, Notice } from '../../components/notice.js';
import { useToast } from '../../components/toasts.js';
import { href } from '../../router.js';
import { useLoad } from '../../use-load.js';

export interface ImportTarget {
  readonly agent: string;
  readonly name: string;
  readonly scope: AgentScope;
  /** Text in the agent's format, read instead of its config (pasted-servers.ts). */
  readonly text?: string;
}

const ACTION: Record<AgentImportItem['action'], string> = {
  add: 'will be added',
  same: 'nothing to add',
  clash: 'name taken',
  skip: 'skipped',
  invalid: 'cannot import',
};

/** What doctor can tell of a server that never ran (as `coffer agents import` warns). */
const BEFORE_START: ReadonlySet<DoctorFinding['code']> = new Set([
  'COMMAND_NOT_FOUND',
  'CWD_NOT_FOUND',
  'SCRIPT_NOT_FOUND',
  'SECRET_MISSING',
  'SERVER_DUPLICATE',
]);

function status(item: AgentImportItem): string {
  if (item.outcome === 'added') return 'added';
  if (item.outcome === 'failed') return `failed: ${item.error ?? ''}`;
  return item.reason === undefined ? ACTION[item.action] : `${ACTION[item.action]}: ${item.reason}`;
}

function target(item: AgentImportItem): string {
  const definition = item.definition;
  if (definition === undefined) return '';
  if (definition.transport === 'stdio')
    return [definition.command ?? '', ...definition.args].join(' ');
  return definition.url ?? '';
}

function ImportRows({ items }: { items: readonly AgentImportItem[] }) {
  return (
    <table className="activity import-items">
      <thead>
        <tr>
          <th scope="col">Entry</th>
          <th scope="col">Runs</th>
          <th scope="col">Secrets to the keychain</th>
          <th scope="col">What happens</th>
        </tr>
      </thead>
      <tbody>
        {items.map((item) => (
          <tr key={item.original} className={item.action === 'add' ? undefined : 'is-muted'}>
            <td data-label="Entry">
              {item.original !== item.server && (
                <>
                  <code>{item.original}</code>
                  <span className="muted"> → </span>
                </>
              )}
              {item.outcome === 'added' || item.action === 'same' ? (
                <a href={href.server(item.server)}>{item.server}</a>
              ) : (
                <code>{item.server}</code>
              )}
              {item.notes.map((note) => (
                <p key={note} className="field-hint">
                  {note}
                </p>
              ))}
            </td>
            <td data-label="Runs">
              <code>{target(item)}</code>
            </td>
            <td data-label="Secrets">
              {item.secrets.length === 0
                ? '—'
                : item.secrets.map((secret) => `${secret.name} (${secret.kind})`).join(', ')}
            </td>
            <td data-label="What happens">{status(item)}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

function importLabel(adds: number, same: number): string {
  if (adds === 0 && same > 0) return `Note ${same} as served by Coffer`;
  if (adds === 0) return 'Nothing to import';
  return `Import ${adds} server${adds === 1 ? '' : 's'}`;
}

/** The agent's servers and what importing each does; Import registers them in Coffer. */
export function ImportPreview(props: {
  readonly target: ImportTarget;
  readonly onDone: () => void;
  readonly onCancel: () => void;
}) {
  const { target: agent, onDone, onCancel } = props;
  const [rename, setRename] = useState(false);
  const [done, setDone] = useState<AgentImport>();
  const [problems, setProblems] = useState<DoctorFinding[]>([]);
  const [importing, setImporting] = useState(false);
  const toast = useToast();
  const base = `/agents/${encodeURIComponent(agent.agent)}/import`;
  const pasted = agent.text !== undefined;
  const body = pasted ? { text: agent.text, rename } : { scope: agent.scope, rename };
  const plan = useLoad(
    () => api.post<AgentImport>(`${base}/preview`, body),
    `${base}:${agent.scope}:${String(rename)}:${agent.text ?? ''}`,
  );
  const shown = done ?? plan.data;
  const adds = plan.data?.items.filter((item) => item.action === 'add').length ?? 0;
  // Entries Coffer already serves are recorded too, so that install can replace them
  // (an agent's file only: pasted text is nobody's).
  const same = pasted ? 0 : (plan.data?.items.filter((item) => item.action === 'same').length ?? 0);

  const run = async () => {
    setImporting(true);
    try {
      const result = await api.post<AgentImport>(base, body);
      setDone(result);
      const added = result.items.filter((item) => item.outcome === 'added');
      const served = same > 0 ? `; ${same} already served by Coffer` : '';
      toast(
        `Imported ${added.length} of ${result.items.length} entries from ${agent.name}${served}`,
      );
      setProblems(
        await findingsOf(
          BEFORE_START,
          added.map((item) => item.server),
        ),
      );
      onDone();
    } catch (error) {
      toast(errorText(error), 'error');
    } finally {
      setImporting(false);
    }
  };

  return (
    <section className="preview" aria-label="Import preview">
      <h3>
        Import from {agent.name} {!pasted && <span className="muted">({agent.scope})</span>}
      </h3>
      {done === undefined && (
        <label className="check">
          <input type="checkbox" checked={rename} onChange={(e) => setRename(e.target.checked)} />
          Give servers whose name Coffer already has a free name
        </label>
      )}
      {shown === undefined && plan.error === undefined && <Loading label="Reading the file…" />}
      {plan.error !== undefined && (
        <Notice
          tone="error"
          title={pasted ? 'Cannot read the pasted text' : 'Cannot read this file'}
        >
          {errorText(plan.error)}
        </Notice>
      )}
      {shown !== undefined && shown.items.length === 0 && (
        <p className="muted">No MCP servers in {shown.path ?? 'the pasted text'}.</p>
      )}
      {shown !== undefined && shown.items.length > 0 && <ImportRows items={shown.items} />}
      {problems.length > 0 && (
        <FindingsNotice title="Before agents use the imported servers" findings={problems} />
      )}
      <div className="form-actions">
        {done === undefined && (
          <button
            type="button"
            className="button primary"
            disabled={adds + same === 0 || importing || plan.loading}
            onClick={() => void run()}
          >
            {importing ? 'Importing…' : importLabel(adds, same)}
          </button>
        )}
        <button type="button" className="button" onClick={onCancel}>
          {done === undefined ? 'Cancel' : 'Close'}
        </button>
      </div>
    </section>
  );
}
