import type { ServerState } from '../api/types.js';

const LABELS: Record<ServerState, string> = {
  idle: 'Idle',
  starting: 'Starting…',
  running: 'Running',
  error: 'Error',
  'crash-loop': 'Crash loop',
  disabled: 'Disabled',
  'needs-sign-in': 'Needs sign-in',
};

/** The state as a word and a colour: never colour alone. */
export function StateBadge({ state, enabled }: { state: ServerState; enabled: boolean }) {
  const shown: ServerState = enabled ? state : 'disabled';
  return (
    <span className={`badge badge-${shown}`}>
      <span className="badge-dot" aria-hidden="true" />
      {LABELS[shown]}
    </span>
  );
}
