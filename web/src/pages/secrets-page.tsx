import { useState, type FormEvent } from 'react';
import { api, errorText } from '../api/client.js';
import type { SecretRow, Server } from '../api/types.js';
import { Loading, Notice } from '../components/notice.js';
import { useToast } from '../components/toasts.js';
import { useDaemonEvents } from '../live/events.js';
import { href } from '../router.js';
import { secretKind } from './server-form-model.js';
import { useLoad } from '../use-load.js';

interface Secrets {
  readonly store: { readonly backend: 'keychain' | 'file'; readonly location?: string };
  readonly secrets: readonly SecretRow[];
}

const secretPath = (row: SecretRow) =>
  `/secrets/${encodeURIComponent(row.server)}/${row.kind}/${encodeURIComponent(row.name)}`;

/** A value field that is sent once and then emptied: the page never holds it longer. */
function SetSecretForm(props: {
  readonly servers: readonly Server[];
  readonly fixed?: SecretRow;
  readonly onSaved: () => void;
  readonly onCancel?: () => void;
}) {
  const { servers, fixed, onSaved, onCancel } = props;
  // No server chosen for the user: a secret stored for the wrong one is easy to miss.
  const [server, setServer] = useState(fixed?.server ?? '');
  const chosen = servers.find((s) => s.name === server);
  // A local server takes its secrets as environment variables, a remote one as headers.
  const kind = fixed?.kind ?? (chosen === undefined ? 'env' : secretKind(chosen.transport));
  const [name, setName] = useState(fixed?.name ?? '');
  const [value, setValue] = useState('');
  const [error, setError] = useState<string>();
  const toast = useToast();
  const label = fixed === undefined ? '' : ` for ${fixed.name}`;

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    try {
      await api.post('/secrets', { server, kind, name, value });
      setValue('');
      setError(undefined);
      toast(`${name} stored for ${server}`);
      onSaved();
    } catch (failure) {
      setError(errorText(failure));
    }
  };

  return (
    <form className="secret-form" onSubmit={(e) => void submit(e)}>
      {fixed === undefined && (
        <>
          <label>
            Server
            <select value={server} required onChange={(e) => setServer(e.target.value)}>
              <option value="" disabled>
                Choose a server
              </option>
              {servers.map((s) => (
                <option key={s.name}>{s.name}</option>
              ))}
            </select>
          </label>
          <label>
            {kind === 'env' ? 'Environment variable' : 'HTTP header'}
            <input value={name} onChange={(e) => setName(e.target.value)} autoComplete="off" />
          </label>
        </>
      )}
      <label className="grow">
        New value{label}
        <input
          type="password"
          value={value}
          onChange={(e) => setValue(e.target.value)}
          autoComplete="new-password"
        />
      </label>
      <div className="form-actions">
        <button
          className="button primary"
          type="submit"
          disabled={value === '' || name === '' || server === ''}
        >
          {fixed === undefined ? 'Store secret' : fixed.stored ? 'Replace' : 'Store'}
        </button>
        {onCancel !== undefined && (
          <button className="button" type="button" onClick={onCancel}>
            Cancel
          </button>
        )}
      </div>
      {error !== undefined && (
        <p className="field-error" role="alert">
          {error}
        </p>
      )}
    </form>
  );
}

/**
 * The question before a delete. The server keeps naming a secret it uses (as `coffer
 * secrets remove` leaves it), so it stops starting until a value is set again: say so.
 */
function deleteQuestion(row: SecretRow): string {
  const question = `Delete ${row.name} of ${row.server} from the keychain?`;
  if (!row.referenced) return question;
  return `${question}\n\n${row.server} still names it, and will not start until ${row.name} has a value again, or until you remove it from ${row.server}'s definition (Edit).`;
}

function SecretsTable(props: {
  readonly rows: readonly SecretRow[];
  readonly servers: readonly Server[];
  readonly onChanged: () => void;
}) {
  const { rows, servers, onChanged } = props;
  const [editing, setEditing] = useState<string>();
  const toast = useToast();
  const remove = async (row: SecretRow) => {
    if (!window.confirm(deleteQuestion(row))) return;
    try {
      await api.delete(secretPath(row));
      toast(`${row.name} deleted`);
      onChanged();
    } catch (error) {
      toast(errorText(error), 'error');
    }
  };
  return (
    <table className="activity secrets">
      <thead>
        <tr>
          <th scope="col">Secret</th>
          <th scope="col">Used by</th>
          <th scope="col">State</th>
          <th scope="col">Actions</th>
        </tr>
      </thead>
      <tbody>
        {rows.map((row) => {
          const key = secretPath(row);
          return (
            <tr key={key}>
              <td data-label="Secret">
                <code>{row.name}</code> <span className="kind">{row.kind}</span>
              </td>
              <td data-label="Used by">
                <a href={href.server(row.server)}>{row.server}</a>
                {!row.referenced && <span className="muted"> (not in its definition)</span>}
              </td>
              <td data-label="State">
                {row.stored ? (
                  <span className="outcome outcome-ok">Stored</span>
                ) : (
                  <span className="outcome outcome-error">Missing</span>
                )}
              </td>
              <td data-label="Actions">
                {editing === key ? (
                  <SetSecretForm
                    servers={servers}
                    fixed={row}
                    onSaved={() => (setEditing(undefined), onChanged())}
                    onCancel={() => setEditing(undefined)}
                  />
                ) : (
                  <div className="agent-actions">
                    <button className="button" type="button" onClick={() => setEditing(key)}>
                      {row.stored ? 'Replace…' : 'Set…'}
                    </button>
                    {row.stored && (
                      <button
                        className="button danger"
                        type="button"
                        aria-label={`Delete ${row.name} of ${row.server}`}
                        onClick={() => void remove(row)}
                      >
                        Delete
                      </button>
                    )}
                  </div>
                )}
              </td>
            </tr>
          );
        })}
      </tbody>
    </table>
  );
}

/**
 * The admin actions after which the list may read otherwise: a secret set or removed, and
 * a server removed or redefined, which takes its secrets with it or stops naming them.
 * (Not every `server.changed`: that also comes whenever an upstream's lists change.)
 */
function changesSecrets(action: string): boolean {
  return action.startsWith('secret.') || action === 'server.update' || action === 'server.remove';
}

/** Secrets by name only: which server uses each, whether a value is stored; never a value. */
export function SecretsPage() {
  const secrets = useLoad(() => api.get<Secrets>('/secrets'), 'secrets');
  const servers = useLoad(
    async () => (await api.get<{ servers: Server[] }>('/servers')).servers,
    'servers',
  );
  useDaemonEvents((event) => {
    if (event.type === 'server.added' || event.type === 'server.removed') servers.reload();
    if (event.type === 'activity.recorded' && changesSecrets(event.entry.action)) secrets.reload();
  });
  const store = secrets.data?.store;

  return (
    <section aria-labelledby="secrets-title">
      <div className="page-head">
        <div>
          <h1 id="secrets-title">Secrets</h1>
          <p className="lede">
            Tokens and keys your servers need, kept in{' '}
            {store?.backend === 'file' ? (
              <>
                a private file (<code>{store.location}</code>): no OS keychain here
              </>
            ) : (
              'the OS keychain'
            )}
            . Values go in once and never come back to this page.
          </p>
        </div>
      </div>
      {secrets.data === undefined && secrets.error === undefined && (
        <Loading label="Loading secrets…" />
      )}
      {secrets.error !== undefined && (
        <Notice tone="error" title="Could not load the secrets">
          {errorText(secrets.error)}
        </Notice>
      )}
      {secrets.data?.secrets.length === 0 && (
        <Notice title="No secrets yet">
          Add one below, or mark an environment variable as secret when you add a server.
        </Notice>
      )}
      {secrets.data !== undefined && secrets.data.secrets.length > 0 && (
        <SecretsTable
          rows={secrets.data.secrets}
          servers={servers.data ?? []}
          onChanged={secrets.reload}
        />
      )}
      {servers.data !== undefined && servers.data.length > 0 && (
        <>
          <h2 className="section-title">Add a secret</h2>
          <SetSecretForm servers={servers.data} onSaved={secrets.reload} />
        </>
      )}
    </section>
  );
}
