import { api, errorText } from '../api/client.js';
import type { ContextBudget, DaemonEvent, DaemonStatus, ListSize } from '../api/types.js';
import { Loading, Notice } from '../components/notice.js';
import { useReloadOn } from '../live/events.js';
import { href } from '../router.js';
import { useLoad } from '../use-load.js';

const number = new Intl.NumberFormat('en');

function Bar({ part, whole }: { part: number; whole: number }) {
  const percent = whole === 0 ? 0 : Math.round((part / whole) * 100);
  return (
    <span className="bar" aria-hidden="true">
      <span className="bar-fill" style={{ width: `${percent}%` }} />
    </span>
  );
}

function Mode({ label, size, note }: { label: string; size: ListSize; note: string }) {
  return (
    <div className="budget-mode">
      <p className="budget-label">{label}</p>
      <p className="budget-tokens">≈ {number.format(size.tokens)} tokens</p>
      <p className="muted">
        {size.tools} tools listed · {number.format(size.chars)} characters. {note}
      </p>
    </div>
  );
}

/** The daemon's limit on tool results (COFFER_RESULT_BUDGET_TOKENS), as `coffer status` says it. */
function ResultBudget() {
  const status = useLoad(() => api.get<DaemonStatus>('/status'), 'status');
  const budget = status.data?.result_budget_tokens;
  const ttl = status.data?.result_ttl_ms;
  if (budget === null)
    return (
      <p className="muted result-budget">
        Tool results are never cut (<code>COFFER_RESULT_BUDGET_TOKENS=off</code>).
      </p>
    );
  if (budget === undefined || ttl === undefined) return null;
  return (
    <p className="muted result-budget">
      Tool results over {number.format(budget)} tokens are cut; the whole result is kept{' '}
      {ttl >= 60_000 ? `${Math.round(ttl / 60_000)} min` : `${Math.round(ttl / 1000)} s`} for the
      agent to read in pages (<code>COFFER_RESULT_BUDGET_TOKENS</code>).
    </p>
  );
}

/**
 * What changes the measure: a server added, removed or redefined, a tool switched, the
 * daemon back after a restart. Not a server starting or stopping: measuring starts them.
 */
function changesBudget(event: DaemonEvent): boolean {
  if (event.type === 'capability.toggled') return event.capability_type === 'tool';
  return event.type !== 'server.state' && event.type !== 'activity.recorded';
}

/**
 * What `tools/list` costs a model before it does anything (characters / 4, as the
 * README measures it): per server, and in total in full vs lean mode. Measured again on
 * its own when a change made anywhere (the CLI, another page) changes it.
 */
export function BudgetPage() {
  const budget = useLoad(() => api.get<ContextBudget>('/context-budget'), 'budget');
  useReloadOn(changesBudget, budget.reload);
  const data = budget.data;
  const largest = Math.max(0, ...(data?.servers.map((s) => s.tokens) ?? []));
  return (
    <section aria-labelledby="budget-title">
      <div className="page-head">
        <div>
          <h1 id="budget-title">Context budget</h1>
          <p className="lede">
            Every tool an agent lists costs tokens before it is used. Switch tools off, or run
            agents in lean mode (<code>coffer shim --lean</code>), to spend less.
          </p>
        </div>
        <button className="button" type="button" onClick={budget.reload} disabled={budget.loading}>
          {budget.loading ? 'Measuring…' : 'Measure again'}
        </button>
      </div>
      {data === undefined && budget.error === undefined && (
        <Loading label="Listing every server's tools…" />
      )}
      {budget.error !== undefined && (
        <Notice tone="error" title="Could not measure the tool lists">
          {errorText(budget.error)}
        </Notice>
      )}
      {data !== undefined && (
        <>
          <div className="budget-modes">
            <Mode label="Full mode" size={data.full} note="Every enabled tool." />
            <Mode
              label="Lean mode"
              size={data.lean}
              note="coffer__search_tools and coffer__call_tool only."
            />
          </div>
          <table className="activity budget">
            <thead>
              <tr>
                <th scope="col">Server</th>
                <th scope="col" className="num">
                  Tools
                </th>
                <th scope="col" className="num">
                  ≈ Tokens
                </th>
                <th scope="col">Share</th>
              </tr>
            </thead>
            <tbody>
              {data.servers.map((row) => (
                <tr key={row.server}>
                  <td data-label="Server">
                    <a href={href.server(row.server)}>{row.server}</a>
                  </td>
                  {row.status === 'ok' ? (
                    <>
                      <td data-label="Tools" className="num">
                        {row.tools}
                      </td>
                      <td data-label="Tokens" className="num">
                        {number.format(row.tokens)}
                      </td>
                      <td data-label="Share">
                        <Bar part={row.tokens} whole={largest} />
                      </td>
                    </>
                  ) : (
                    <td colSpan={3} className="muted">
                      Could not load ({row.error?.code}): left out of the list
                    </td>
                  )}
                </tr>
              ))}
            </tbody>
          </table>
          {data.servers.length === 0 && (
            <p className="muted">No enabled server: only Coffer's own tools are listed.</p>
          )}
        </>
      )}
      <ResultBudget />
    </section>
  );
}
