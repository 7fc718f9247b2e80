import { useCallback, useEffect, useRef, useState } from 'react';

export interface Loaded<T> {
  readonly data: T | undefined;
  readonly error: unknown;
  readonly loading: boolean;
  /** Loads again, keeping what is shown until the answer arrives (no flicker on live updates). */
  readonly reload: () => void;
  /** Replaces the data locally (an optimistic change, or one an event announced). */
  readonly set: (update: (current: T) => T) => void;
}

/** Loads `load()` when `key` changes; the answer of a stale request is dropped. */
export function useLoad<T>(load: () => Promise<T>, key: string): Loaded<T> {
  const [data, setData] = useState<T>();
  const [error, setError] = useState<unknown>();
  const [loading, setLoading] = useState(true);
  const latest = useRef(load);
  latest.current = load;
  const generation = useRef(0);

  const reload = useCallback(() => {
    const mine = (generation.current += 1);
    setLoading(true);
    latest.current().then(
      (value) => {
        if (mine !== generation.current) return;
        setData(value);
        setError(undefined);
        setLoading(false);
      },
      (failure: unknown) => {
        if (mine !== generation.current) return;
        setError(failure);
        setLoading(false);
      },
    );
  }, []);

  useEffect(() => {
    setData(undefined);
    reload();
  }, [key, reload]);

  const set = useCallback((update: (current: T) => T) => {
    setData((current) => (current === undefined ? current : update(current)));
  }, []);

  return { data, error, loading, reload, set };
}
