import { useState, type FormEvent } from 'react';
import { api, errorText, serverPath } from '../../api/client.js';
import type { CapabilityView, ToolRun } from '../../api/types.js';
import { ActivityTable } from '../activity-table.js';
import { argumentsOf, fieldsOf, type SchemaField } from './schema-fields.js';
import { ToolResult } from './tool-result.js';

function FieldInput(props: {
  readonly field: SchemaField;
  readonly value: string;
  readonly onChange: (value: string) => void;
}) {
  const { field, value, onChange } = props;
  const id = `arg-${field.name}`;
  const label = `${field.name}${field.required ? ' *' : ''}`;
  let control;
  if (field.kind === 'boolean')
    control = (
      <input
        id={id}
        type="checkbox"
        checked={value === 'true'}
        onChange={(e) => onChange(e.target.checked ? 'true' : 'false')}
      />
    );
  else if (field.kind === 'enum')
    control = (
      <select id={id} value={value} onChange={(e) => onChange(e.target.value)}>
        <option value="">—</option>
        {field.options?.map((option) => (
          <option key={option}>{option}</option>
        ))}
      </select>
    );
  else if (field.kind === 'json' || field.kind === 'list')
    control = (
      <textarea
        id={id}
        rows={3}
        value={value}
        placeholder={field.kind === 'json' ? 'JSON' : `one ${field.itemKind ?? ''} per line`}
        onChange={(e) => onChange(e.target.value)}
      />
    );
  else
    control = (
      <input
        id={id}
        type={field.kind === 'string' ? 'text' : 'number'}
        step={field.kind === 'integer' ? 1 : 'any'}
        value={value}
        onChange={(e) => onChange(e.target.value)}
      />
    );
  return (
    <div className="field">
      <label htmlFor={id}>
        {label}{' '}
        <span className="muted small">
          {field.kind === 'list' ? `${field.itemKind ?? ''}[]` : field.kind}
        </span>
      </label>
      {control}
      {field.description !== undefined && <p className="field-hint">{field.description}</p>}
    </div>
  );
}

/**
 * Try a tool: a form generated from its inputSchema, the call made as an agent makes
 * it (a disabled tool is refused), the result with its content types, and the
 * activity row the call left.
 */
export function ToolPlayground({
  server,
  tools,
}: {
  server: string;
  tools: readonly CapabilityView[];
}) {
  const [tool, setTool] = useState(tools[0]?.key ?? '');
  const [values, setValues] = useState<Record<string, string>>({});
  const [run, setRun] = useState<ToolRun>();
  const [problem, setProblem] = useState<string>();
  const [running, setRunning] = useState(false);
  const definition = tools.find((item) => item.key === tool)?.definition;
  const fields = fieldsOf(definition?.['inputSchema']);

  const choose = (key: string) => {
    setTool(key);
    setValues({});
    setRun(undefined);
    setProblem(undefined);
  };

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setProblem(undefined);
    let args: Record<string, unknown>;
    try {
      args = argumentsOf(fields, values);
    } catch (error) {
      setProblem(errorText(error));
      return;
    }
    setRunning(true);
    try {
      setRun(await api.post<ToolRun>(`${serverPath(server)}/call`, { tool, arguments: args }));
    } catch (error) {
      setProblem(errorText(error));
    } finally {
      setRunning(false);
    }
  };

  if (tools.length === 0) return null;
  return (
    <section className="playground" aria-labelledby="playground-title">
      <h2 id="playground-title" className="section-title">
        Try a tool
      </h2>
      <form onSubmit={(e) => void submit(e)}>
        <div className="field">
          <label htmlFor="playground-tool">Tool</label>
          <select id="playground-tool" value={tool} onChange={(e) => choose(e.target.value)}>
            {tools.map((item) => (
              <option key={item.key} value={item.key}>
                {item.key}
                {item.enabled ? '' : ' (disabled)'}
              </option>
            ))}
          </select>
        </div>
        {fields.map((field) => (
          <FieldInput
            key={`${tool}:${field.name}`}
            field={field}
            value={values[field.name] ?? ''}
            onChange={(value) => setValues((current) => ({ ...current, [field.name]: value }))}
          />
        ))}
        <div className="form-actions">
          <button className="button primary" type="submit" disabled={running || tool === ''}>
            {running ? 'Calling…' : 'Call tool'}
          </button>
        </div>
        {problem !== undefined && (
          <p className="field-error" role="alert">
            {problem}
          </p>
        )}
      </form>
      <div aria-live="polite">
        {run !== undefined && (
          <>
            <ToolResult run={run} />
            <h4>Activity</h4>
            <ActivityTable rows={[{ ...run.activity, rowKey: 'playground' }]} />
          </>
        )}
      </div>
    </section>
  );
}
