import { useState } from 'react';
import { errorText } from '../api/client.js';
import type { CapabilityType, ServerCapabilities } from '../api/types.js';
import {
  CapabilityPanel,
  listedCount,
  type Section,
  type TypedItem,
} from '../components/capability-panel.js';
import { Loading, Notice } from '../components/notice.js';
import { Tabs } from '../components/tabs.js';

type Tab = 'tools' | 'prompts' | 'resources';
const TABS = ['tools', 'prompts', 'resources'] as const;

/** The Resources tab shows resources and resource templates together. */
const sectionsOf = (caps: ServerCapabilities, tab: Tab): Section[] =>
  tab === 'tools'
    ? [{ type: 'tool', listing: caps.tools }]
    : tab === 'prompts'
      ? [{ type: 'prompt', listing: caps.prompts }]
      : [
          { type: 'resource', listing: caps.resources },
          { type: 'resource_template', listing: caps.resource_templates },
        ];

const FIELD = {
  tool: 'tools',
  prompt: 'prompts',
  resource: 'resources',
  resource_template: 'resource_templates',
} as const;

/** The lists with `keys` switched to `enabled`: an optimistic change, or an announced one. */
export function withEnabled(
  caps: ServerCapabilities,
  type: CapabilityType,
  keys: ReadonlySet<string>,
  enabled: boolean,
): ServerCapabilities {
  const listing = caps[FIELD[type]];
  const items = listing.items.map((item) => (keys.has(item.key) ? { ...item, enabled } : item));
  return { ...caps, [FIELD[type]]: { ...listing, items } };
}

/** Tabs for tools, prompts and resources, each with its list, filter and switches. */
export function CapabilityTabs(props: {
  readonly caps: ServerCapabilities | undefined;
  readonly error: unknown;
  readonly onToggle: (items: readonly TypedItem[], enabled: boolean) => void;
}) {
  const { caps, error, onToggle } = props;
  const [tab, setTab] = useState<Tab>('tools');
  const count = (key: Tab) =>
    caps === undefined
      ? undefined
      : sectionsOf(caps, key).reduce((n, section) => n + listedCount(section.listing), 0);
  return (
    <>
      <Tabs
        label="Capabilities"
        idPrefix="caps"
        selected={tab}
        onSelect={setTab}
        tabs={TABS.map((key) => ({
          key,
          label: key[0]?.toUpperCase() + key.slice(1),
          count: count(key),
        }))}
      />
      <div role="tabpanel" id="caps-panel" aria-labelledby={`caps-tab-${tab}`} className="panel">
        {caps === undefined && error === undefined && (
          <Loading label="Asking the server what it offers…" />
        )}
        {caps === undefined && error !== undefined && (
          <Notice tone="error" title="Could not load — test the connection or refresh">
            {errorText(error)}
          </Notice>
        )}
        {caps !== undefined && (
          <CapabilityPanel
            key={tab}
            noun={tab.slice(0, -1)}
            sections={sectionsOf(caps, tab)}
            onToggle={onToggle}
          />
        )}
      </div>
    </>
  );
}
