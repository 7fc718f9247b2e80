/** The hint of a server's last error, under its message; nothing when it has none. */
export function WhatToDo({ hint }: { readonly hint: string | undefined }) {
  return hint === undefined ? null : <span className="last-error-hint">What to do: {hint}</span>;
}
