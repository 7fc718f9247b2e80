/**
 * An on/off switch: a real button with role="switch", so Space/Enter toggle it and a
 * screen reader says "on" or "off" with its label.
 */
export function Switch(props: {
  readonly checked: boolean;
  readonly label: string;
  readonly onChange: (checked: boolean) => void;
  readonly disabled?: boolean;
  /** Show the label next to the switch; otherwise it is for screen readers only. */
  readonly visibleLabel?: boolean;
}) {
  const { checked, label, onChange, disabled = false, visibleLabel = false } = props;
  return (
    <button
      type="button"
      role="switch"
      aria-checked={checked}
      aria-label={visibleLabel ? undefined : label}
      className="switch"
      disabled={disabled}
      onClick={() => onChange(!checked)}
    >
      <span className="switch-track" aria-hidden="true">
        <span className="switch-thumb" />
      </span>
      {visibleLabel && <span className="switch-label">{label}</span>}
    </button>
  );
}
