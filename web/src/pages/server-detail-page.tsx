import { useState } from 'react';
import { api, errorText, serverPath } from '../api/client.js';
import type {
  CapabilityType,
  DaemonEvent,
  DoctorFinding,
  Server,
  ServerCapabilities,
} from '../api/types.js';
import type { TypedItem } from '../components/capability-panel.js';
import { FindingsNotice, findingsOf } from '../components/findings-notice.js';
import { Loading, Notice } from '../components/notice.js';
import { useToast } from '../components/toasts.js';
import { useDaemonEvents } from '../live/events.js';
import { href, navigate } from '../router.js';
import { useLoad, type Loaded } from '../use-load.js';
import { CapabilityTabs, withEnabled } from './capability-tabs.js';
import { ChangedTools } from './changed-tools.js';
import { TestResult, useConnectionTest } from './server-actions.js';
import { ServerHeader } from './server-header.js';
import { ToolPlayground } from './playground/tool-playground.js';
import { ToolPolicies } from './tool-policies.js';

/** What only the doctor can tell of one server (its errors show in its own state). */
const SERVED_TWICE: ReadonlySet<DoctorFinding['code']> = new Set(['SERVER_DUPLICATE']);

function byType(items: readonly TypedItem[]): Map<CapabilityType, string[]> {
  const groups = new Map<CapabilityType, string[]>();
  for (const item of items) groups.set(item.type, [...(groups.get(item.type) ?? []), item.key]);
  return groups;
}

/** Keeps the page current: states and switches from events, the rest reloaded. */
function useServerEvents(
  name: string,
  server: Loaded<Server>,
  caps: Loaded<ServerCapabilities>,
  onRemoved: () => void,
) {
  useDaemonEvents((event: DaemonEvent) => {
    if (event.type === 'ready') return (server.reload(), caps.reload());
    if (!('server' in event) || event.server !== name) return;
    if (event.type === 'server.removed') onRemoved();
    else if (event.type === 'server.state') server.set((s) => ({ ...s, status: event.status }));
    else if (event.type === 'capability.toggled')
      caps.set((c) => withEnabled(c, event.capability_type, new Set(event.keys), event.enabled));
    else if (event.type === 'server.changed') {
      // A tool held back or accepted changes its mark in the Tools tab too.
      server.reload();
      caps.reload();
    } else server.reload();
  });
}

/**
 * One server: its state, test and refresh, tools held back for a changed definition,
 * every capability with its switch, tool policies.
 */
export function ServerDetailPage({ name }: { name: string }) {
  const path = serverPath(name);
  const server = useLoad(async () => (await api.get<{ server: Server }>(path)).server, name);
  const caps = useLoad(() => api.get<ServerCapabilities>(`${path}/capabilities`), name);
  const twice = useLoad(() => findingsOf(SERVED_TWICE, [name]), name);
  const [removed, setRemoved] = useState(false);
  const [refreshing, setRefreshing] = useState(false);
  const test = useConnectionTest(name, caps.reload);
  const toast = useToast();
  useServerEvents(name, server, caps, () => setRemoved(true));

  /** Runs an action and says how it went; the page itself follows through events. */
  const run = async (action: () => Promise<unknown>, done: string, onError?: () => void) => {
    try {
      await action();
      toast(done);
    } catch (error) {
      toast(errorText(error), 'error');
      onError?.();
    }
  };

  const toggle = (items: readonly TypedItem[], enabled: boolean) => {
    const word = enabled ? 'enabled' : 'disabled';
    const what = items.length === 1 ? (items[0]?.key ?? '') : `${items.length} items`;
    const before = caps.data;
    void run(
      async () => {
        for (const [type, keys] of byType(items)) {
          caps.set((c) => withEnabled(c, type, new Set(keys), enabled));
          await api.post(`${path}/capabilities`, { type, keys, enabled });
        }
      },
      `${what} ${word}`,
      () => {
        // Not saved (the daemon may be down, and a reload with it): the switches go back.
        if (before !== undefined) caps.set(() => before);
        caps.reload();
      },
    );
  };

  const refresh = async () => {
    setRefreshing(true);
    await run(async () => {
      const fresh = await api.post<ServerCapabilities>(`${path}/refresh`);
      caps.set(() => fresh);
    }, 'Lists refreshed');
    setRefreshing(false);
  };

  const remove = () => {
    const question = `Remove ${name}? Agents lose its tools; your choices for them, its secrets and its sign-in are deleted.`;
    if (!window.confirm(question)) return;
    void run(async () => {
      await api.delete(path);
      navigate(href.servers);
    }, `${name} removed`);
  };

  if (removed || (server.error !== undefined && server.data === undefined))
    return (
      <Notice
        tone={removed ? 'empty' : 'error'}
        title={removed ? `${name} was removed` : `Could not load ${name}`}
        action={
          <a className="button" href={href.servers}>
            Back to servers
          </a>
        }
      >
        {removed ? 'Another window or the CLI removed this server.' : errorText(server.error)}
      </Notice>
    );
  if (server.data === undefined) return <Loading label={`Loading ${name}…`} />;

  return (
    <section aria-labelledby="server-title">
      <ServerHeader
        server={server.data}
        templates={caps.data?.resource_templates.items.length}
        onEnable={(on) =>
          void run(
            () => api.post(`${path}/${on ? 'enable' : 'disable'}`).then(server.reload),
            `${name} ${on ? 'enabled' : 'disabled'}`,
          )
        }
      />
      <div className="toolbar">
        <button
          className="button primary"
          type="button"
          disabled={test.testing}
          onClick={() => void test.run()}
        >
          {test.testing ? 'Testing…' : 'Test connection'}
        </button>
        <button
          className="button"
          type="button"
          disabled={refreshing}
          onClick={() => void refresh()}
        >
          {refreshing ? 'Refreshing…' : 'Refresh'}
        </button>
        <a className="button" href={href.editServer(name)}>
          Edit
        </a>
        <a className="button" href={href.activity(name)}>
          Activity
        </a>
        <button className="button danger" type="button" onClick={remove}>
          Remove
        </button>
      </div>
      <div aria-live="polite">
        {test.result !== undefined && <TestResult result={test.result} />}
      </div>
      {twice.data !== undefined && twice.data.length > 0 && (
        <FindingsNotice title="Served twice" findings={twice.data} />
      )}
      <ChangedTools server={name} />
      <CapabilityTabs caps={caps.data} error={caps.error} onToggle={toggle} />
      <ToolPolicies server={name} />
      {caps.data !== undefined && (
        <ToolPlayground
          server={name}
          tools={caps.data.tools.items.filter((item) => item.definition !== null)}
        />
      )}
    </section>
  );
}
