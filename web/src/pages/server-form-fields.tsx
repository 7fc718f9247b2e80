import { Field, TransportChoice } from '../components/form-controls.js';
import { PairsEditor } from '../components/pairs-editor.js';
import type { FieldErrors } from './server-form-page.js';
import { SHARED_HINT, type FormState } from './server-form-model.js';
import { relativePathsHint, unresolvedPaths } from './relative-paths.js';

const CWD_HINT =
  'Optional: where relative paths in the command and arguments are read from. Left empty, Coffer starts the server in its own folder, your home folder when it started itself.';

/** The fields of the add/edit form; what is shown follows the transport. */
export function ServerFormFields(props: {
  readonly form: FormState;
  readonly onChange: (form: FormState) => void;
  readonly errors: FieldErrors;
  readonly editing: boolean;
  /** A field the user edits loses its old error: it may be fixed now. */
  readonly onEdited: (fields: string[]) => void;
}) {
  const { form, onChange, errors, editing, onEdited } = props;
  const set = (change: Partial<FormState>) => {
    onChange({ ...form, ...change });
    onEdited(
      Object.keys(change).flatMap((key) =>
        key === 'secrets' ? ['secrets', 'secret_env', 'secret_headers'] : [key],
      ),
    );
  };
  const stdio = form.transport === 'stdio';
  return (
    <>
      <Field
        label="Name"
        hint="Lowercase letters, digits, - and _. Tools appear as name__tool."
        error={errors.name}
      >
        {({ id, describedBy }) => (
          <input
            id={id}
            name="name"
            value={form.name}
            readOnly={editing}
            required
            spellCheck={false}
            aria-describedby={describedBy}
            aria-invalid={errors.name !== undefined}
            onChange={(e) => set({ name: e.target.value })}
          />
        )}
      </Field>
      <TransportChoice value={form.transport} onChange={(transport) => set({ transport })} />
      {errors.transport !== undefined && <p className="field-error">{errors.transport}</p>}
      {stdio ? (
        <>
          <Field
            label="Command"
            hint="The program to start, e.g. npx or /usr/local/bin/server."
            error={errors.command}
          >
            {({ id, describedBy }) => (
              <input
                id={id}
                name="command"
                value={form.command}
                spellCheck={false}
                aria-describedby={describedBy}
                aria-invalid={errors.command !== undefined}
                onChange={(e) => set({ command: e.target.value })}
              />
            )}
          </Field>
          <Field
            label="Arguments"
            hint={
              form.argsFit
                ? 'One per line.'
                : `They hold a line break, a blank or a padded argument, which this box cannot show one per line: they are kept as they are. To change them: coffer mcp edit ${form.name} -- <command> <arguments>`
            }
            error={errors.args}
          >
            {({ id, describedBy }) => (
              <textarea
                id={id}
                name="args"
                rows={3}
                value={form.args}
                readOnly={!form.argsFit}
                spellCheck={false}
                aria-describedby={describedBy}
                aria-invalid={errors.args !== undefined}
                onChange={(e) => set({ args: e.target.value })}
              />
            )}
          </Field>
          <Field
            label="Working directory"
            hint={relativePathsHint(unresolvedPaths(form)) ?? CWD_HINT}
            error={errors.cwd}
          >
            {({ id, describedBy }) => (
              <input
                id={id}
                name="cwd"
                value={form.cwd}
                spellCheck={false}
                aria-describedby={describedBy}
                aria-invalid={errors.cwd !== undefined}
                onChange={(e) => set({ cwd: e.target.value })}
              />
            )}
          </Field>
          <PairsEditor
            legend="Environment"
            hint="Plain values, stored in Coffer's database. Put tokens under Secrets."
            pairs={form.env}
            onChange={(env) => set({ env })}
            namePlaceholder="NAME"
            addLabel="Add variable"
            error={errors.env}
          />
        </>
      ) : (
        <>
          <Field
            label="URL"
            hint="The server's MCP endpoint, http:// or https://."
            error={errors.url}
          >
            {({ id, describedBy }) => (
              <input
                id={id}
                name="url"
                type="url"
                value={form.url}
                spellCheck={false}
                aria-describedby={describedBy}
                aria-invalid={errors.url !== undefined}
                onChange={(e) => set({ url: e.target.value })}
              />
            )}
          </Field>
          <PairsEditor
            legend="Headers"
            hint="Plain values sent with every request. Put tokens under Secrets."
            pairs={form.headers}
            onChange={(headers) => set({ headers })}
            namePlaceholder="Header-Name"
            addLabel="Add header"
            error={errors.headers}
          />
        </>
      )}
      <PairsEditor
        secret
        legend="Secrets"
        hint={`Kept in Coffer's secret store (your OS keychain where there is one), given to the server as ${stdio ? 'environment variables' : 'headers'}; never shown again.`}
        pairs={form.secrets}
        onChange={(secrets) => set({ secrets })}
        namePlaceholder={stdio ? 'API_TOKEN' : 'Authorization'}
        addLabel="Add secret"
        error={errors.secrets ?? errors.secret_env ?? errors.secret_headers}
      />
      <div className="checks">
        {!editing && (
          <label className="check">
            <input
              type="checkbox"
              checked={form.enabled}
              onChange={(e) => set({ enabled: e.target.checked })}
            />
            Enabled: serve it to agents now
          </label>
        )}
        <label className="check">
          <input
            type="checkbox"
            checked={form.autoEnable}
            onChange={(e) => set({ autoEnable: e.target.checked })}
          />
          Enable new tools, prompts and resources as they appear
        </label>
        <label className="check">
          <input
            type="checkbox"
            name="shared"
            checked={form.shared}
            aria-describedby="shared-hint"
            onChange={(e) => set({ shared: e.target.checked })}
          />
          Shared by all agents
        </label>
        <p id="shared-hint" className="field-hint">
          {SHARED_HINT}
        </p>
      </div>
    </>
  );
}
