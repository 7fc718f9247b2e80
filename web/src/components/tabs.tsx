import { useRef, type KeyboardEvent } from 'react';

export interface TabSpec<K extends string> {
  readonly key: K;
  readonly label: string;
  readonly count?: number | undefined;
}

/** WAI-ARIA tabs: arrow keys, Home and End move between tabs; Tab goes into the panel. */
export function Tabs<K extends string>(props: {
  readonly label: string;
  readonly tabs: readonly TabSpec<K>[];
  readonly selected: K;
  readonly onSelect: (key: K) => void;
  readonly idPrefix: string;
}) {
  const { label, tabs, selected, onSelect, idPrefix } = props;
  const refs = useRef(new Map<K, HTMLButtonElement>());
  const onKeyDown = (event: KeyboardEvent) => {
    const index = tabs.findIndex((tab) => tab.key === selected);
    const moves: Record<string, number> = {
      ArrowRight: index + 1,
      ArrowLeft: index - 1,
      Home: 0,
      End: tabs.length - 1,
    };
    const target = moves[event.key];
    if (target === undefined) return;
    event.preventDefault();
    const next = tabs[(target + tabs.length) % tabs.length];
    if (next === undefined) return;
    onSelect(next.key);
    refs.current.get(next.key)?.focus();
  };
  return (
    <div role="tablist" aria-label={label} className="tabs" onKeyDown={onKeyDown}>
      {tabs.map((tab) => (
        <button
          key={tab.key}
          ref={(element) => {
            if (element === null) refs.current.delete(tab.key);
            else refs.current.set(tab.key, element);
          }}
          type="button"
          role="tab"
          id={`${idPrefix}-tab-${tab.key}`}
          aria-selected={tab.key === selected}
          aria-controls={`${idPrefix}-panel`}
          tabIndex={tab.key === selected ? 0 : -1}
          onClick={() => onSelect(tab.key)}
        >
          {tab.label}
          {tab.count !== undefined && <span className="tab-count">{tab.count}</span>}
        </button>
      ))}
    </div>
  );
}
