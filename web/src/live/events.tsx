import { createContext, useContext, useEffect, useRef, useState, type ReactNode } from 'react';
import type { DaemonEvent } from '../api/types.js';

/** `signed-out`: the daemon refuses this browser's session (it restarted, or 12 h passed). */
export type LiveState = 'connecting' | 'live' | 'offline' | 'signed-out';
type Listener = (event: DaemonEvent) => void;

interface LiveContext {
  readonly state: LiveState;
  readonly subscribe: (listener: Listener) => () => void;
}

const Context = createContext<LiveContext>({ state: 'offline', subscribe: () => () => undefined });

/** After the daemon closed the stream for good (restart, expired session), try again. */
const RECONNECT_MS = 3_000;

/**
 * Why the stream could not be opened: an EventSource never sees the status. A 401 is a
 * session the daemon no longer knows; anything else (no answer) is the daemon offline.
 */
async function closedBecause(): Promise<LiveState> {
  try {
    const response = await fetch('/api/v1/events', { credentials: 'same-origin' });
    await response.body?.cancel();
    return response.status === 401 ? 'signed-out' : 'offline';
  } catch {
    return 'offline';
  }
}

/**
 * One EventSource for the whole app (GET /api/v1/events). Pages subscribe to the
 * events they show; a `ready` after a reconnect tells them to reload what they missed.
 */
export function LiveEvents({ children }: { children: ReactNode }) {
  const listeners = useRef(new Set<Listener>());
  const [state, setState] = useState<LiveState>('connecting');

  useEffect(() => {
    let source: EventSource | undefined;
    let timer: number | undefined;
    let connectedBefore = false;
    const open = () => {
      source = new EventSource('/api/v1/events');
      source.onmessage = (message: MessageEvent<string>) => {
        const event = JSON.parse(message.data) as DaemonEvent;
        if (event.type === 'ready') {
          setState('live');
          if (!connectedBefore) {
            connectedBefore = true;
            return;
          }
        }
        for (const listener of listeners.current) listener(event);
      };
      source.onerror = () => {
        if (source?.readyState !== EventSource.CLOSED) return setState('offline');
        source.close();
        // Tried again while signed out too: `coffer ui` in another tab sets a new cookie,
        // and this page then goes live again and reloads what it shows.
        void closedBecause().then(setState);
        timer = window.setTimeout(open, RECONNECT_MS);
      };
    };
    open();
    return () => {
      window.clearTimeout(timer);
      source?.close();
    };
  }, []);

  const value: LiveContext = {
    state,
    subscribe: (listener) => {
      listeners.current.add(listener);
      return () => listeners.current.delete(listener);
    },
  };
  return <Context.Provider value={value}>{children}</Context.Provider>;
}

export function useLiveState(): LiveState {
  return useContext(Context).state;
}

/** Calls the latest `listener` for every event, without resubscribing on each render. */
export function useDaemonEvents(listener: Listener): void {
  const { subscribe } = useContext(Context);
  const latest = useRef(listener);
  latest.current = listener;
  useEffect(() => subscribe((event) => latest.current(event)), [subscribe]);
}

/** How long a burst of events may last: one reload after its last event. */
const BURST_MS = 150;

/**
 * Calls `reload` once per burst of the events `wanted` accepts: a page whose figures
 * depend on every server (adding one announces several events) reloads once, not once
 * an event.
 */
export function useReloadOn(wanted: (event: DaemonEvent) => boolean, reload: () => void): void {
  const pending = useRef<number | undefined>(undefined);
  useEffect(() => () => window.clearTimeout(pending.current), []);
  useDaemonEvents((event) => {
    if (!wanted(event)) return;
    window.clearTimeout(pending.current);
    pending.current = window.setTimeout(reload, BURST_MS);
  });
}
