import { useState } from 'react';
import { api, errorText, serverPath } from '../api/client.js';
import type { DaemonEvent, ReviewedTool, ToolReviews } from '../api/types.js';
import { CHANGED_TOOLS_ID } from '../components/capability-item.js';
import { DiffView } from '../components/diff-view.js';
import { Notice } from '../components/notice.js';
import { useToast } from '../components/toasts.js';
import { useDaemonEvents } from '../live/events.js';
import { timeOf } from '../format.js';
import { useLoad } from '../use-load.js';

function DefinitionDiff({ tool }: { tool: ReviewedTool }) {
  return <DiffView lines={tool.diff} label={`Changes to ${tool.key}`} />;
}

function ChangedTool(props: {
  readonly tool: ReviewedTool;
  readonly busy: boolean;
  readonly onAccept: () => void;
}) {
  const { tool, busy, onAccept } = props;
  return (
    <li className="changed-tool">
      <div className="changed-tool-head">
        <code>{tool.key}</code>
        <span className="muted small">
          allowed {timeOf(tool.pinned_at)}, changed {timeOf(tool.detected_at)}
        </span>
        <button
          className="button primary"
          type="button"
          disabled={busy}
          aria-label={`Accept the change to ${tool.key}`}
          onClick={onAccept}
        >
          Accept
        </button>
      </div>
      <DefinitionDiff tool={tool} />
    </li>
  );
}

/**
 * Tools held back because the server changed what they say since you allowed them
 * (issue 20, rug-pull protection): each with the diff of its definition and an Accept
 * button. Nothing shows while no tool is held back.
 */
export function ChangedTools({ server }: { server: string }) {
  const path = `${serverPath(server)}/reviews`;
  const view = useLoad(() => api.get<ToolReviews>(path), server);
  const [busy, setBusy] = useState(false);
  const toast = useToast();
  const { data, error, reload } = view;
  // A change found by any list, and an accept from the CLI, are announced this way.
  useDaemonEvents((event: DaemonEvent) => {
    if (event.type === 'ready') reload();
    else if (event.type === 'server.changed' && event.server === server) reload();
  });

  const accept = async (tool: string) => {
    setBusy(true);
    try {
      await api.post(path, { tool });
      view.set((current) => ({ ...current, tools: current.tools.filter((t) => t.key !== tool) }));
      toast(`${tool}: change accepted, listed again`);
      reload();
    } catch (failure) {
      toast(errorText(failure), 'error');
    }
    setBusy(false);
  };

  if (data === undefined && error !== undefined)
    return (
      <Notice tone="error" title="Could not check for changed tools">
        {errorText(error)}
      </Notice>
    );
  if (data === undefined || data.tools.length === 0) return null;
  return (
    <section className="changed-tools" aria-labelledby={CHANGED_TOOLS_ID}>
      <h2 id={CHANGED_TOOLS_ID} className="section-title" tabIndex={-1}>
        Changed tools
      </h2>
      <p className="muted">
        The server changed what these tools say since you allowed them. Agents do not see them, and
        calls are refused, until you accept the change.
      </p>
      <ul className="capabilities" aria-label="Changed tools">
        {data.tools.map((tool) => (
          <ChangedTool
            key={tool.key}
            tool={tool}
            busy={busy}
            onAccept={() => void accept(tool.key)}
          />
        ))}
      </ul>
    </section>
  );
}
