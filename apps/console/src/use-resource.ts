import { useCallback, useEffect, useRef, useState } from 'react';

export interface Resource<T> {
  data: T | undefined;
  error: Error | undefined;
  loading: boolean;
  reload: () => void;
}

/**
 * Loads `load()` when `key` changes (a route, a filter, a live-update counter). The previous data
 * stays on screen while the next answer is on its way, and a late answer for an old key is dropped.
 */
export function useResource<T>(load: () => Promise<T>, key: string): Resource<T> {
  const [data, setData] = useState<T>();
  const [error, setError] = useState<Error>();
  const [loading, setLoading] = useState(true);
  const [nonce, setNonce] = useState(0);
  const current = useRef(0);
  const loader = useRef(load);
  loader.current = load;
  // biome-ignore lint/correctness/useExhaustiveDependencies: `key` and `nonce` are what trigger a load.
  useEffect(() => {
    const id = ++current.current;
    setLoading(true);
    loader
      .current()
      .then((value) => {
        if (id !== current.current) return;
        setData(value);
        setError(undefined);
      })
      .catch((reason: unknown) => {
        if (id !== current.current) return;
        setError(reason instanceof Error ? reason : new Error(String(reason)));
      })
      .finally(() => {
        if (id === current.current) setLoading(false);
      });
  }, [key, nonce]);
  const reload = useCallback(() => setNonce((n) => n + 1), []);
  return { data, error, loading, reload };
}
