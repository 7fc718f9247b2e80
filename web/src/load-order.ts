/**
 * Which answer of a view's loads may be shown. An answer holds what the daemon had when
 * it read the request: an event applied to the view after the request left is not in it,
 * and showing it would undo that event (a state badge going back to "Needs sign-in").
 * So only the latest load's answer is shown, and a change made while a load is in flight
 * makes that load stale: the view loads again.
 */
export class LoadOrder {
  private latest = 0;
  private pending = false;

  /** A load starts: the ticket its answer comes back with. */
  begin(): number {
    this.latest += 1;
    this.pending = true;
    return this.latest;
  }

  /** Its answer arrived: whether it may be shown (not when a newer load overtook it). */
  settle(ticket: number): boolean {
    if (ticket !== this.latest) return false;
    this.pending = false;
    return true;
  }

  /** The view changed locally: true when the load in flight is stale and must be made again. */
  changed(): boolean {
    return this.pending;
  }
}
