/** What to do about a problem (a last error's hint, a doctor finding's fix), under it; nothing when there is nothing. */
export function WhatToDo({ hint }: { readonly hint: string | undefined }) {
  return hint === undefined ? null : <span className="last-error-hint">What to do: {hint}</span>;
}
