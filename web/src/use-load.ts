import { useCallback, useEffect, useRef, useState } from 'react';
import { LoadOrder } from './load-order.js';

export interface Loaded<T> {
  readonly data: T | undefined;
  readonly error: unknown;
  readonly loading: boolean;
  /** Loads again, keeping what is shown until the answer arrives (no flicker on live updates). */
  readonly reload: () => void;
  /**
   * Replaces the data locally (an optimistic change, or one an event announced); a load
   * in flight then is made again, its answer being older than the change.
   */
  readonly set: (update: (current: T) => T) => void;
}

/** Loads `load()` when `key` changes; the answer of a stale request is dropped (LoadOrder). */
export function useLoad<T>(load: () => Promise<T>, key: string): Loaded<T> {
  const [data, setData] = useState<T>();
  const [error, setError] = useState<unknown>();
  const [loading, setLoading] = useState(true);
  const latest = useRef(load);
  latest.current = load;
  const [order] = useState(() => new LoadOrder());

  const reload = useCallback(() => {
    const ticket = order.begin();
    setLoading(true);
    latest.current().then(
      (value) => {
        if (!order.settle(ticket)) return;
        setData(value);
        setError(undefined);
        setLoading(false);
      },
      (failure: unknown) => {
        if (!order.settle(ticket)) return;
        setError(failure);
        setLoading(false);
      },
    );
  }, [order]);

  useEffect(() => {
    setData(undefined);
    reload();
  }, [key, reload]);

  const set = useCallback(
    (update: (current: T) => T) => {
      setData((current) => (current === undefined ? current : update(current)));
      if (order.changed()) reload();
    },
    [order, reload],
  );

  return { data, error, loading, reload, set };
}
