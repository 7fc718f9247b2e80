import type { ReactNode } from 'react';

/**
 * The designed empty and error states: a title that says what is going on, a line that
 * says what to do, and the action when there is one.
 */
export function Notice(props: {
  readonly tone?: 'empty' | 'error' | 'warning' | 'info';
  readonly title: string;
  readonly children?: ReactNode;
  readonly action?: ReactNode;
}) {
  const { tone = 'empty', title, children, action } = props;
  return (
    <div className={`notice notice-${tone}`} role={tone === 'error' ? 'alert' : undefined}>
      <p className="notice-title">{title}</p>
      {children !== undefined && <div className="notice-body">{children}</div>}
      {action !== undefined && <div className="notice-action">{action}</div>}
    </div>
  );
}

export function Loading({ label }: { label: string }) {
  return (
    <p className="loading" role="status">
      <span className="spinner" aria-hidden="true" />
      {label}
    </p>
  );
}
