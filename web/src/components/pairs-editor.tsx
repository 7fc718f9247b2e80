import { useId } from 'react';

export interface Pair {
  readonly name: string;
  readonly value: string;
  /** A stored secret whose value is kept unless a new one is typed. */
  readonly stored?: boolean;
}

/**
 * Name/value rows (env variables, headers, secrets). Secret values are password
 * fields: typed once, sent to the keychain, never shown again.
 */
export function PairsEditor(props: {
  readonly legend: string;
  readonly hint: string;
  readonly pairs: readonly Pair[];
  readonly onChange: (pairs: Pair[]) => void;
  readonly namePlaceholder: string;
  readonly addLabel: string;
  readonly secret?: boolean;
  readonly error?: string | undefined;
}) {
  const { legend, hint, pairs, onChange, namePlaceholder, addLabel, secret = false, error } = props;
  const id = useId();
  const update = (index: number, change: Partial<Pair>) =>
    onChange(pairs.map((pair, i) => (i === index ? { ...pair, ...change } : pair)));
  return (
    <fieldset className="pairs" aria-describedby={`${id}-hint`}>
      <legend>{legend}</legend>
      <p className="field-hint" id={`${id}-hint`}>
        {hint}
      </p>
      {pairs.map((pair, index) => (
        <div className="pair-row" key={index}>
          <input
            aria-label={`${legend} ${index + 1} name`}
            placeholder={namePlaceholder}
            value={pair.name}
            readOnly={pair.stored === true}
            spellCheck={false}
            onChange={(e) => update(index, { name: e.target.value })}
          />
          <input
            aria-label={`${legend} ${index + 1} value`}
            placeholder={pair.stored === true ? 'stored — type to replace' : 'value'}
            type={secret ? 'password' : 'text'}
            autoComplete={secret ? 'new-password' : 'off'}
            spellCheck={false}
            value={pair.value}
            onChange={(e) => update(index, { value: e.target.value })}
          />
          <button
            type="button"
            className="button subtle"
            aria-label={`Remove ${pair.name === '' ? `row ${index + 1}` : pair.name}`}
            onClick={() => onChange(pairs.filter((_, i) => i !== index))}
          >
            Remove
          </button>
        </div>
      ))}
      {error !== undefined && (
        <p className="field-error" role="alert">
          {error}
        </p>
      )}
      <button
        type="button"
        className="button subtle"
        onClick={() => onChange([...pairs, { name: '', value: '' }])}
      >
        {addLabel}
      </button>
    </fieldset>
  );
}

export const toRecord = (pairs: readonly Pair[]): Record<string, string> =>
  Object.fromEntries(
    pairs.filter((p) => p.name.trim() !== '').map((p) => [p.name.trim(), p.value]),
  );

export const toPairs = (record: Readonly<Record<string, string>>): Pair[] =>
  Object.entries(record).map(([name, value]) => ({ name, value }));
