import { useState } from 'react';
import { Notice } from '../components/notice.js';
import { useDaemonEvents } from '../live/events.js';
import { definitionOf, type FormState } from './server-form-model.js';

/** Two forms describe the same definition: what an edit would send is the same. */
export function sameDefinition(a: FormState, b: FormState): boolean {
  return JSON.stringify(definitionOf(a, true)) === JSON.stringify(definitionOf(b, true));
}

export interface ChangedElsewhere {
  /** The server as it is now, when it no longer is what the form was loaded from. */
  readonly current: FormState | undefined;
  /** Before a save: true (and the notice shows) if the server changed since the form loaded. */
  refuse(): Promise<boolean>;
  /** Start again from the server as it is now. */
  adopt(current: FormState): void;
}

/**
 * An edit form open while the CLI or another window changes the same server. The form
 * sends only the fields the user changed, but a field (env, headers, secrets) goes whole:
 * saving on top of another change would undo it without a word. A form nobody typed in
 * follows the change; one with edits says so, and a save waits until the user chose.
 */
export function useChangedElsewhere(options: {
  readonly name: string | undefined;
  readonly form: FormState | undefined;
  readonly initial: FormState | undefined;
  /** While the form saves, the change announced is its own. */
  readonly saving: boolean;
  readonly load: (name: string) => Promise<FormState>;
  readonly reset: (current: FormState) => void;
}): ChangedElsewhere {
  const { name, form, initial, saving, load, reset } = options;
  const [current, setCurrent] = useState<FormState>();

  const check = async (): Promise<FormState | undefined> => {
    if (name === undefined || initial === undefined) return undefined;
    const now = await load(name);
    return sameDefinition(now, initial) ? undefined : now;
  };
  const adopt = (now: FormState) => {
    setCurrent(undefined);
    reset(now);
  };

  useDaemonEvents((event) => {
    const ours =
      event.type === 'ready' || (event.type === 'server.changed' && event.server === name);
    if (!ours || saving || form === undefined || initial === undefined) return;
    const untouched = sameDefinition(form, initial);
    check().then(
      (now) => {
        if (now === undefined) return;
        if (untouched) adopt(now);
        else setCurrent(now);
      },
      // Removed, or the daemon is away: the page's other notices say so.
      () => undefined,
    );
  });

  const refuse = async (): Promise<boolean> => {
    const now = await check();
    if (now !== undefined) setCurrent(now);
    return now !== undefined;
  };
  return { current, refuse, adopt };
}

/** What the form shows once the server changed under it, with the way out. */
export function ChangedElsewhereNotice(props: {
  readonly name: string;
  readonly changed: ChangedElsewhere;
}) {
  const { name, changed } = props;
  const current = changed.current;
  if (current === undefined) return null;
  return (
    <Notice
      tone="warning"
      title={`${name} was changed elsewhere`}
      action={
        <button className="button" type="button" onClick={() => changed.adopt(current)}>
          Load the current definition
        </button>
      }
    >
      The CLI or another window changed it since this form was opened, and saving these fields would
      undo that change: Save changes saves nothing until you load its current definition (what you
      typed here is dropped) and make your change again.
    </Notice>
  );
}
