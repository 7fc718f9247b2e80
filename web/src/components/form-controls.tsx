import { useId, type ReactNode } from 'react';
import type { Transport } from '../api/types.js';

/**
 * A labelled form field with its hint and its error, tied together by ids so a screen
 * reader reads the error with the field.
 */
export function Field(props: {
  readonly label: string;
  readonly hint?: string;
  readonly error?: string | undefined;
  readonly children: (ids: { id: string; describedBy: string | undefined }) => ReactNode;
}) {
  const id = useId();
  const hintId = props.hint === undefined ? undefined : `${id}-hint`;
  const errorId = props.error === undefined ? undefined : `${id}-error`;
  const describedBy = [hintId, errorId].filter(Boolean).join(' ') || undefined;
  return (
    <div className={`field${props.error === undefined ? '' : ' has-error'}`}>
      <label htmlFor={id}>{props.label}</label>
      {props.children({ id, describedBy })}
      {props.hint !== undefined && (
        <p className="field-hint" id={hintId}>
          {props.hint}
        </p>
      )}
      {props.error !== undefined && (
        <p className="field-error" id={errorId}>
          {props.error}
        </p>
      )}
    </div>
  );
}

const TRANSPORTS: { value: Transport; label: string; hint: string }[] = [
  { value: 'stdio', label: 'Local program', hint: 'stdio' },
  { value: 'http', label: 'Remote', hint: 'Streamable HTTP' },
  { value: 'sse', label: 'Remote (legacy)', hint: 'HTTP + SSE' },
];

export function TransportChoice({
  value,
  onChange,
}: {
  value: Transport;
  onChange: (t: Transport) => void;
}) {
  return (
    <fieldset className="segmented">
      <legend>Transport</legend>
      {TRANSPORTS.map((option) => (
        <label key={option.value} className={value === option.value ? 'checked' : undefined}>
          <input
            type="radio"
            name="transport"
            value={option.value}
            checked={value === option.value}
            onChange={() => onChange(option.value)}
          />
          <span>{option.label}</span>
          <small>{option.hint}</small>
        </label>
      ))}
    </fieldset>
  );
}
