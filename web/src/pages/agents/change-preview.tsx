import { useState } from 'react';
import { api, errorText } from '../../api/client.js';
import type { AgentChangePreview, AgentChangeResult, AgentScope } from '../../api/types.js';
import { DiffView } from '../../components/diff-view.js';
import { Loading, Notice } from '../../components/notice.js';
import { useToast } from '../../components/toasts.js';
import { lineDiff } from '../../line-diff.js';
import { useLoad } from '../../use-load.js';

export interface ChangeTarget {
  readonly agent: string;
  readonly name: string;
  readonly scope: AgentScope;
  readonly change: 'install' | 'uninstall';
}

function FileDiff({ preview }: { preview: AgentChangePreview }) {
  return (
    <DiffView
      lines={lineDiff(preview.before, preview.after)}
      label={`Changes to ${preview.path}`}
    />
  );
}

/**
 * What an install or uninstall will write, before it is written: the effects in words
 * and the file's diff (env and header values masked by the daemon). Apply sends the
 * preview's fingerprint, so a file changed in between is refused, not overwritten.
 */
export function ChangePreview(props: {
  readonly target: ChangeTarget;
  readonly onDone: () => void;
  readonly onCancel: () => void;
}) {
  const { target, onDone, onCancel } = props;
  const [replace, setReplace] = useState(false);
  const [applying, setApplying] = useState(false);
  const toast = useToast();
  const base = `/agents/${encodeURIComponent(target.agent)}/${target.change}`;
  const body = { scope: target.scope, replace };
  const preview = useLoad(
    async () => (await api.post<{ preview: AgentChangePreview }>(`${base}/preview`, body)).preview,
    `${base}:${target.scope}:${String(replace)}`,
  );
  const verb = target.change === 'install' ? 'Install' : 'Uninstall';

  const apply = async (current: AgentChangePreview) => {
    setApplying(true);
    try {
      const { result } = await api.post<{ result: AgentChangeResult }>(base, {
        ...body,
        expected_sha256: current.before_sha256,
      });
      const backup = result.backup_id === undefined ? '' : ` (backup ${result.backup_id})`;
      toast(`${verb}ed: restart ${target.name} to pick it up${backup}`);
      onDone();
    } catch (error) {
      toast(errorText(error), 'error');
      preview.reload();
    } finally {
      setApplying(false);
    }
  };

  return (
    <section className="preview" aria-label={`${verb} preview`}>
      <h3>
        {verb} Coffer in {target.name} <span className="muted">({target.scope})</span>
      </h3>
      {target.change === 'install' && (
        <label className="check">
          <input type="checkbox" checked={replace} onChange={(e) => setReplace(e.target.checked)} />
          Also remove the servers imported from this file (Coffer serves them now)
        </label>
      )}
      {preview.data === undefined && preview.error === undefined && (
        <Loading label="Planning the change…" />
      )}
      {preview.error !== undefined && (
        <Notice tone="error" title="Cannot plan this change">
          {errorText(preview.error)}
        </Notice>
      )}
      {preview.data !== undefined && (
        <>
          <p className="muted">
            <code>{preview.data.path}</code>
          </p>
          <ul className="summary">
            {preview.data.summary.map((line) => (
              <li key={line}>{line}</li>
            ))}
          </ul>
          {preview.data.changes && <FileDiff preview={preview.data} />}
        </>
      )}
      <div className="form-actions">
        <button
          type="button"
          className="button primary"
          disabled={preview.data?.changes !== true || applying || preview.loading}
          onClick={() => preview.data !== undefined && void apply(preview.data)}
        >
          {applying ? 'Applying…' : `${verb} now`}
        </button>
        <button type="button" className="button" onClick={onCancel}>
          Cancel
        </button>
      </div>
    </section>
  );
}
