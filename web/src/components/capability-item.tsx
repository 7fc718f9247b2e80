import type { CapabilityView } from '../api/types.js';
import { Switch } from './switch.js';

const str = (value: unknown): string | undefined => (typeof value === 'string' ? value : undefined);

/** The id of the server page's Changed tools heading (changed-tools.tsx), where a held tool is reviewed. */
export const CHANGED_TOOLS_ID = 'changed-tools-title';

/** Goes to the Changed tools section: the hash holds the route, so no `#id` link can. */
function showChangedTools(): void {
  const heading = document.getElementById(CHANGED_TOOLS_ID);
  heading?.scrollIntoView({ block: 'start' });
  heading?.focus();
}

/** A tool held back for a changed definition: the way to its review. */
function HeldMark({ tool }: { tool: string }) {
  return (
    <button
      type="button"
      className="tag tag-held"
      aria-label={`${tool} changed — review the change`}
      onClick={showChangedTools}
    >
      changed — review
    </button>
  );
}

/** One tool / prompt / resource: switch, name, description, and its schema on demand. */
export function CapabilityItem(props: {
  readonly item: CapabilityView;
  readonly onToggle: (enabled: boolean) => void;
}) {
  const { item, onToggle } = props;
  const definition = item.definition;
  const title = str(definition?.title) ?? str(definition?.name);
  const description = str(definition?.description);
  const schema = definition?.inputSchema ?? definition?.arguments;
  return (
    <li className={`capability${item.enabled ? '' : ' is-off'}`}>
      <Switch checked={item.enabled} label={`Enable ${item.key}`} onChange={onToggle} />
      <div className="capability-text">
        <p className="capability-name">
          <code>{item.key}</code>
          {title !== undefined && title !== item.key && (
            <span className="capability-title">{title}</span>
          )}
          {definition === null && <span className="tag">not listed now</span>}
          {item.held === true && <HeldMark tool={item.key} />}
        </p>
        {description !== undefined && <p className="capability-description">{description}</p>}
        {schema !== undefined && (
          <details>
            <summary>
              {definition?.inputSchema === undefined ? 'Arguments' : 'Input schema'}
            </summary>
            <pre>{JSON.stringify(schema, null, 2)}</pre>
          </details>
        )}
      </div>
    </li>
  );
}
