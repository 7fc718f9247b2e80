import type { LoadedList } from './list-loader.js';

/**
 * Which tools of each server the pin check held back (issue 20), as one session sees
 * them: a loaded tool list says so itself; without one (the server cannot list now) the
 * last list loaded says, so a call to a tool held back then is still refused.
 */
export class HeldTools {
  private readonly lastHeld = new Map<string, ReadonlySet<string>>();

  /** A tool list of `server` was loaded: its held-back tools are the ones to remember. */
  noteList(server: string, list: LoadedList): void {
    this.lastHeld.set(server, list.held);
  }

  /** Whether `key` is held back, from `list` when there is one, else from the last one. */
  isHeld(server: string, key: string, list: LoadedList | undefined): boolean {
    return (list?.held ?? this.lastHeld.get(server))?.has(key) ?? false;
  }
}
