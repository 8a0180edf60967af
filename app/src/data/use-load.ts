import { useCallback, useEffect, useRef, useState } from 'preact/hooks';
import { type Failure, failureOfError } from './answer.js';

/** A page's data as it loads: the answer, or the failure, and a way to read it again. */
export interface Loaded<T> {
  /** The last answer (kept while a reload runs; dropped when the inputs change). */
  data: T | undefined;
  failure: Failure | undefined;
  loading: boolean;
  /** Reads again (after a change the page made); a read still running is aborted. */
  reload: () => void;
  /** Changes the data in place, for an answer that already says the new state (no read needed). */
  update: (change: (data: T) => T) => void;
}

/**
 * Reads what a page shows, again whenever `inputs` change. Each read gets an AbortSignal (openapi-fetch takes it:
 * `api.GET(path, { signal })`); a newer read, a reload or leaving the page aborts the older one, so an answer that
 * arrives late never overwrites a newer one. `load` may throw a Failure-like error (answerOf's ApiFailure).
 */
export function useLoad<T>(
  load: (signal: AbortSignal) => Promise<T>,
  inputs: readonly unknown[],
  options: {
    /** Keep the data on screen while other inputs are read (a period switch), instead of "Loading…" in its place. */
    keep?: boolean;
  } = {},
): Loaded<T> {
  const [state, setState] = useState<{ data: T | undefined; failure: Failure | undefined; loading: boolean }>({
    data: undefined,
    failure: undefined,
    loading: true,
  });
  const running = useRef<AbortController | undefined>(undefined);
  // The newest `load` (it closes over the page's inputs); the read runs it, not the one of the first render.
  const latest = useRef(load);
  latest.current = load;

  const read = useCallback((fresh: boolean) => {
    running.current?.abort();
    const controller = new AbortController();
    running.current = controller;
    setState((was) => ({ data: fresh ? undefined : was.data, failure: undefined, loading: true }));
    latest.current(controller.signal).then(
      (data) => {
        if (!controller.signal.aborted) setState({ data, failure: undefined, loading: false });
      },
      (error: unknown) => {
        if (!controller.signal.aborted)
          setState((was) => ({ data: was.data, failure: failureOfError(error), loading: false }));
      },
    );
  }, []);

  useEffect(() => {
    read(!options.keep);
    return () => running.current?.abort();
    // The caller names what the read depends on, as with useEffect.
  }, inputs);

  const reload = useCallback(() => read(false), [read]);
  const update = useCallback(
    (change: (data: T) => T) => setState((was) => (was.data === undefined ? was : { ...was, data: change(was.data) })),
    [],
  );
  return { ...state, reload, update };
}
