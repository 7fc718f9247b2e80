import { useEffect, useState, type FormEvent } from 'react';
import { api, ApiError, errorText, serverPath } from '../api/client.js';
import type { SecretRow, Server } from '../api/types.js';
import { Loading, Notice } from '../components/notice.js';
import { useToast } from '../components/toasts.js';
import { href, navigate } from '../router.js';
import { ServerFormFields } from './server-form-fields.js';
import { PasteImport } from './paste-import.js';
import { ChangedElsewhereNotice, useChangedElsewhere } from './changed-elsewhere.js';
import {
  definitionOf,
  editedDefinition,
  emptyForm,
  formFromServer,
  pairErrors,
  secretKind,
  secretsToStore,
  type FormState,
} from './server-form-model.js';

export type FieldErrors = Partial<Record<string, string>>;

/** Secrets are listed only where a keychain backs the daemon; elsewhere there are none. */
async function loadForm(name: string): Promise<FormState> {
  const { server } = await api.get<{ server: Server }>(serverPath(name));
  const stored = await api
    .get<{ secrets: SecretRow[] }>(`/secrets?server=${encodeURIComponent(name)}`)
    .then((answer) => answer.secrets)
    .catch(() => []);
  return formFromServer(server, stored);
}

async function storeSecrets(form: FormState): Promise<void> {
  const kind = secretKind(form.transport);
  for (const secret of secretsToStore(form)) {
    await api.post('/secrets', {
      server: form.name.trim(),
      kind,
      name: secret.name.trim(),
      value: secret.value,
    });
  }
}

/** Where an API error belongs: a field of the form, or the form as a whole. */
function errorsFrom(error: unknown, secretsStep: boolean): { fields: FieldErrors; form?: string } {
  if (!(error instanceof ApiError) || error.status !== 400)
    return { fields: {}, form: errorText(error) };
  if (secretsStep) return { fields: { secrets: error.detail } };
  const field = error.field;
  return field === undefined
    ? { fields: {}, form: error.message }
    : { fields: { [field]: error.detail } };
}

/** Add a server, or edit one (`name` given). Validation is the API's, shown by field. */
export function ServerFormPage({ name }: { name?: string }) {
  const editing = name !== undefined;
  const [form, setForm] = useState<FormState | undefined>(editing ? undefined : emptyForm);
  /** The server as loaded: an edit sends only what differs from it. */
  const [initial, setInitial] = useState<FormState>();
  const [loadError, setLoadError] = useState<unknown>();
  const [errors, setErrors] = useState<FieldErrors>({});
  const [formError, setFormError] = useState<string>();
  const [saving, setSaving] = useState(false);
  const [created, setCreated] = useState(false);
  const toast = useToast();
  const changed = useChangedElsewhere({
    name,
    form,
    initial,
    saving,
    load: loadForm,
    reset: (current) => {
      setForm(current);
      setInitial(current);
      setErrors({});
      setFormError(undefined);
    },
  });

  useEffect(() => {
    if (name === undefined) return;
    loadForm(name).then((loaded) => {
      setForm(loaded);
      setInitial(loaded);
    }, setLoadError);
  }, [name]);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (form === undefined) return;
    const lost = pairErrors(form);
    if (Object.keys(lost).length > 0) {
      setErrors(lost);
      return;
    }
    setSaving(true);
    setErrors({});
    setFormError(undefined);
    let secretsStep = false;
    try {
      if (editing && (await changed.refuse())) return;
      const body =
        editing && initial !== undefined
          ? editedDefinition(form, initial)
          : definitionOf(form, editing || created);
      if (editing || created) await api.patch(serverPath(form.name.trim()), body);
      else await api.post('/servers', body);
      // What the server is now: a change announced from here on is someone else's.
      if (editing) setInitial(form);
      setCreated(true);
      secretsStep = true;
      await storeSecrets(form);
      toast(editing ? `${form.name} saved` : `${form.name} added`);
      navigate(href.server(form.name.trim()));
    } catch (error) {
      const found = errorsFrom(error, secretsStep);
      setErrors(found.fields);
      setFormError(found.form);
    } finally {
      setSaving(false);
    }
  };

  if (loadError !== undefined)
    return (
      <Notice
        tone="error"
        title={`Could not load ${name ?? 'the server'}`}
        action={<a href={href.servers}>Back to servers</a>}
      >
        {errorText(loadError)}
      </Notice>
    );
  if (form === undefined) return <Loading label="Loading the server…" />;

  const title = editing ? `Edit ${name}` : 'Add a server';
  return (
    <section aria-labelledby="form-title" className="narrow">
      <p className="crumbs">
        <a href={href.servers}>Servers</a>
        {editing && (
          <>
            {' '}
            / <a href={href.server(name)}>{name}</a>
          </>
        )}
      </p>
      <h1 id="form-title">{title}</h1>
      {!editing && !created && <PasteImport />}
      {editing && <ChangedElsewhereNotice name={name} changed={changed} />}
      {formError !== undefined && (
        <Notice
          tone="error"
          title={
            created && !editing
              ? 'The server was added, but not everything was saved'
              : 'Could not save'
          }
        >
          {formError}
        </Notice>
      )}
      <form onSubmit={(e) => void submit(e)} noValidate>
        <ServerFormFields
          form={form}
          onChange={setForm}
          onEdited={(fields) =>
            setErrors((current) =>
              Object.fromEntries(Object.entries(current).filter(([key]) => !fields.includes(key))),
            )
          }
          errors={errors}
          editing={editing || created}
        />
        <div className="form-actions">
          <button className="button primary" type="submit" disabled={saving}>
            {saving ? 'Saving…' : editing ? 'Save changes' : 'Add server'}
          </button>
          <a className="button" href={editing ? href.server(name) : href.servers}>
            Cancel
          </a>
        </div>
      </form>
    </section>
  );
}
