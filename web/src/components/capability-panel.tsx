import { useState } from 'react';
import type { CapabilityListing, CapabilityType, CapabilityView } from '../api/types.js';
import { CapabilityItem } from './capability-item.js';
import { Notice } from './notice.js';

export interface Section {
  readonly type: CapabilityType;
  readonly listing: CapabilityListing;
}

/** An item with the type it is toggled as (a tab may mix resources and templates). */
export type TypedItem = CapabilityView & { readonly type: CapabilityType };

/**
 * What a list counts: the items the server lists now. A choice kept for a name it does
 * not list (a typo in `coffer mcp disable --tool`, a tool gone) is shown, "not listed
 * now", but not counted as one of its tools; when the list could not load, every item is
 * one seen before, and all count.
 */
export function listedCount(listing: CapabilityListing): number {
  if (listing.status === 'could-not-load') return listing.items.length;
  return listing.items.filter((item) => item.definition !== null).length;
}

function matches(item: CapabilityView, filter: string): boolean {
  if (filter === '') return true;
  const text = [item.key, item.definition?.title, item.definition?.description]
    .filter((part) => typeof part === 'string')
    .join(' ')
    .toLowerCase();
  return text.includes(filter.toLowerCase());
}

/**
 * One tab's list. "Could not load" (the server did not answer) is told apart from
 * "none discovered yet" (it answered with nothing): they call for different actions.
 */
export function CapabilityPanel(props: {
  readonly noun: string;
  readonly sections: readonly Section[];
  readonly onToggle: (items: readonly TypedItem[], enabled: boolean) => void;
}) {
  const { noun, sections, onToggle } = props;
  const [filter, setFilter] = useState('');
  const listings = sections.map((section) => section.listing);
  const items: TypedItem[] = sections.flatMap(({ type, listing }) =>
    listing.items.map((item) => ({ ...item, type })),
  );
  const shown = items.filter((item) => matches(item, filter.trim()));
  const failed = listings.find((listing) => listing.status === 'could-not-load');
  const counted = failed === undefined ? shown.filter((item) => item.definition !== null) : shown;
  const unlisted = shown.length - counted.length;
  const unsupported = listings.every((listing) => listing.status === 'not-supported');

  return (
    <div className="panel-body">
      {failed?.status === 'could-not-load' && (
        <Notice tone="warning" title="Could not load — test the connection or refresh">
          {/* Two sentences, each its own: the message may end without a full stop. */}
          <p>{failed.error.message}</p>
          {items.length > 0 && (
            <p>The {noun}s below are the ones seen before, with your choices.</p>
          )}
        </Notice>
      )}
      {failed === undefined && items.length === 0 && (
        <Notice
          title={unsupported ? `This server offers no ${noun}s` : `No ${noun}s discovered yet`}
        >
          {unsupported
            ? `It did not declare ${noun}s when it connected.`
            : `The server answered with an empty list. Refresh after it adds some.`}
        </Notice>
      )}
      {items.length > 0 && (
        <>
          <div className="panel-tools">
            <input
              type="search"
              className="filter"
              placeholder={`Filter ${noun}s`}
              aria-label={`Filter ${noun}s`}
              value={filter}
              onChange={(e) => setFilter(e.target.value)}
            />
            <span className="muted" aria-live="polite">
              {counted.filter((i) => i.enabled).length} of {counted.length} enabled
              {unlisted > 0 && ` · ${unlisted} not listed now`}
            </span>
            <button
              type="button"
              className="button"
              disabled={shown.length === 0}
              onClick={() => onToggle(shown, true)}
            >
              Enable {filter === '' ? 'all' : 'shown'}
            </button>
            <button
              type="button"
              className="button"
              disabled={shown.length === 0}
              onClick={() => onToggle(shown, false)}
            >
              Disable {filter === '' ? 'all' : 'shown'}
            </button>
          </div>
          {shown.length === 0 ? (
            <p className="muted">
              No {noun} matches “{filter}”.
            </p>
          ) : (
            <ul className="capabilities" aria-label={`${noun}s`}>
              {shown.map((item) => (
                <CapabilityItem
                  key={`${item.type}:${item.key}`}
                  item={item}
                  onToggle={(on) => onToggle([item], on)}
                />
              ))}
            </ul>
          )}
        </>
      )}
    </div>
  );
}
