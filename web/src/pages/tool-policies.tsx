import { api, errorText, serverPath } from '../api/client.js';
import type { DaemonEvent, ServerPolicies, ToolPolicy, ToolPolicyRow } from '../api/types.js';
import { Loading, Notice } from '../components/notice.js';
import { useToast } from '../components/toasts.js';
import { useDaemonEvents } from '../live/events.js';
import { useLoad } from '../use-load.js';

const POLICIES: readonly ToolPolicy[] = ['allow', 'ask', 'deny'];

interface PolicyChange {
  readonly destructive?: ToolPolicy;
  readonly tools?: Readonly<Record<string, ToolPolicy | null>>;
}

/** What applies to a tool without its own policy (the daemon's rule, domain/tool-policy.ts). */
const fallback = (destructive: ToolPolicy, row: ToolPolicyRow): ToolPolicy =>
  row.destructive ? destructive : 'allow';

/** The view with `change` made, shown at once while the daemon's own view is read back. */
function withChange(view: ServerPolicies, change: PolicyChange): ServerPolicies {
  const destructive = change.destructive ?? view.destructive;
  const tools = view.tools.map((row) => {
    const own = change.tools?.[row.key];
    const policy = own === undefined ? row.policy : own;
    return { ...row, policy, effective: policy ?? fallback(destructive, row) };
  });
  return { ...view, destructive, tools };
}

function why(row: ToolPolicyRow): string {
  const reason =
    row.policy !== null
      ? 'set for this tool'
      : row.destructive
        ? 'destructive, by its annotations'
        : 'default';
  return row.enabled ? reason : `${reason}; switched off, so refused`;
}

function PolicyItem(props: {
  readonly row: ToolPolicyRow;
  readonly destructive: ToolPolicy;
  readonly onChange: (policy: ToolPolicy | null) => void;
}) {
  const { row, destructive, onChange } = props;
  return (
    <li className="policy-row">
      <code className="policy-key">{row.key}</code>
      {/* A switched-off tool is refused: its policy applies once it is switched on again. */}
      <span className={`badge policy-${row.enabled ? row.effective : 'off'}`}>
        {row.enabled ? row.effective : 'off'}
      </span>
      <span className="muted small policy-why">{why(row)}</span>
      <select
        aria-label={`Policy of ${row.key}`}
        value={row.policy ?? ''}
        onChange={(e) => onChange(e.target.value === '' ? null : (e.target.value as ToolPolicy))}
      >
        <option value="">default ({fallback(destructive, row)})</option>
        {POLICIES.map((policy) => (
          <option key={policy} value={policy}>
            {policy}
          </option>
        ))}
      </select>
    </li>
  );
}

function DestructiveDefault(props: {
  readonly value: ToolPolicy;
  readonly onChange: (policy: ToolPolicy) => void;
}) {
  return (
    <div className="field">
      <label htmlFor="policy-destructive">Tools marked destructive</label>
      <select
        id="policy-destructive"
        aria-describedby="policy-destructive-hint"
        value={props.value}
        onChange={(e) => props.onChange(e.target.value as ToolPolicy)}
      >
        {POLICIES.map((policy) => (
          <option key={policy}>{policy}</option>
        ))}
      </select>
      <p className="field-hint" id="policy-destructive-hint">
        Tools whose annotations say destructiveHint, and not readOnlyHint, unless set below.
      </p>
    </div>
  );
}

function PolicyItems(props: {
  readonly rows: readonly ToolPolicyRow[];
  readonly destructive: ToolPolicy;
  readonly onChange: (change: PolicyChange, done: string) => void;
}) {
  const { rows, destructive, onChange } = props;
  return (
    <ul className="capabilities" aria-label="Tool policies">
      {rows.map((row) => (
        <PolicyItem
          key={row.key}
          row={row}
          destructive={destructive}
          onChange={(policy) =>
            onChange({ tools: { [row.key]: policy } }, `${row.key}: ${policy ?? 'back to default'}`)
          }
        />
      ))}
    </ul>
  );
}

/**
 * Destructive tools and those with their own policy first; the rest, allowed by default,
 * folded away so a server with many tools keeps the ones that matter in view. A tool
 * switched off is refused whatever its policy, so it is not counted as allowed.
 */
function PolicyList(props: {
  readonly view: ServerPolicies;
  readonly onChange: (change: PolicyChange, done: string) => void;
}) {
  const { view, onChange } = props;
  if (view.tools.length === 0) return <p className="muted">No tools listed yet.</p>;
  const notable = view.tools.filter((row) => row.policy !== null || row.destructive);
  const plain = view.tools.filter((row) => row.policy === null && !row.destructive);
  const others = plain.filter((row) => row.enabled);
  const off = plain.filter((row) => !row.enabled);
  return (
    <>
      {notable.length > 0 && (
        <PolicyItems rows={notable} destructive={view.destructive} onChange={onChange} />
      )}
      {others.length > 0 && (
        <details className="policy-others">
          <summary>
            {others.length} {others.length === 1 ? 'tool' : 'tools'} allowed by default
          </summary>
          <PolicyItems rows={others} destructive={view.destructive} onChange={onChange} />
        </details>
      )}
      {off.length > 0 && (
        <details className="policy-others">
          <summary>
            {off.length} {off.length === 1 ? 'tool' : 'tools'} switched off, refused whatever the
            policy
          </summary>
          <PolicyItems rows={off} destructive={view.destructive} onChange={onChange} />
        </details>
      )}
    </>
  );
}

/**
 * What runs without asking (issue 20): each tool's policy and why it applies, and the
 * server's default for tools whose annotations say they destroy something.
 */
export function ToolPolicies({ server }: { server: string }) {
  const path = `${serverPath(server)}/policies`;
  const view = useLoad(() => api.get<ServerPolicies>(path), server);
  const toast = useToast();
  const { data, error, reload } = view;
  // Changes from the CLI or another window, and lists refreshed, are announced this way.
  useDaemonEvents((event: DaemonEvent) => {
    if (event.type === 'ready') reload();
    else if (event.type === 'server.changed' && event.server === server) reload();
    // A tool switched on or off (the Tools tab above, or the CLI) moves between groups.
    else if (event.type === 'capability.toggled' && event.server === server) reload();
  });

  // Shown once the daemon took it (a refused change never shows), then read back.
  const change = async (body: PolicyChange, done: string) => {
    try {
      await api.post(path, body);
      view.set((current) => withChange(current, body));
      toast(done);
      reload();
    } catch (failure) {
      toast(errorText(failure), 'error');
    }
  };

  return (
    <section className="policies" aria-labelledby="policies-title">
      <h2 id="policies-title" className="section-title">
        Before a tool runs
      </h2>
      <p className="muted">
        <strong>allow</strong> runs it, <strong>ask</strong> asks you through the agent first,{' '}
        <strong>deny</strong> refuses it. Try a tool is your own call and is not asked.
      </p>
      {data === undefined && error === undefined && <Loading label="Loading policies…" />}
      {data === undefined && error !== undefined && (
        <Notice tone="error" title="Could not load the policies">
          {errorText(error)}
        </Notice>
      )}
      {data !== undefined && (
        <>
          <DestructiveDefault
            value={data.destructive}
            onChange={(policy) =>
              void change({ destructive: policy }, `Destructive tools: ${policy}`)
            }
          />
          <PolicyList view={data} onChange={(body, done) => void change(body, done)} />
        </>
      )}
    </section>
  );
}
