import { useCallback, useEffect, useRef, useState } from 'preact/hooks';
import { type Failure, failureOfError } from './answer.js';

/** An action of a page (create, save, delete) as it runs. */
export interface Action<A extends unknown[]> {
  /** Runs the action; resolves true when it succeeded (never rejects: a failure is in `failure`). */
  run: (...args: A) => Promise<boolean>;
  /** While it runs: buttons that would start it again are disabled. */
  busy: boolean;
  /** Why the last run failed (the API's message and error items), until the next run. */
  failure: Failure | undefined;
  /** The words the last successful run said (`''` before, during and after a failed run), for a status line. */
  done: string;
  /** Forgets the failure and the words (the person moved on). */
  reset: () => void;
}

/**
 * One action of a page: a busy flag, the failure, and the words of success, so that no page writes its own
 * try/catch/finally. `act` returns what to say when it succeeded (or nothing) and throws when it did not (answerOf
 * throws the API's refusal).
 */
// biome-ignore lint/suspicious/noConfusingVoidType: an action that has nothing to say is an async function without a return (Promise<void>).
export function useAction<A extends unknown[]>(act: (...args: A) => Promise<string | void>): Action<A> {
  const [state, setState] = useState<{ busy: boolean; failure: Failure | undefined; done: string }>({
    busy: false,
    failure: undefined,
    done: '',
  });
  const latest = useRef(act);
  latest.current = act;
  // An answer that arrives after the page is gone changes nothing.
  const mounted = useRef(true);
  useEffect(() => {
    mounted.current = true;
    return () => {
      mounted.current = false;
    };
  }, []);

  const run = useCallback(async (...args: A) => {
    setState({ busy: true, failure: undefined, done: '' });
    try {
      const said = await latest.current(...args);
      if (mounted.current) setState({ busy: false, failure: undefined, done: said ?? '' });
      return true;
    } catch (error) {
      if (mounted.current) setState({ busy: false, failure: failureOfError(error), done: '' });
      return false;
    }
  }, []);
  const reset = useCallback(() => setState((was) => ({ ...was, failure: undefined, done: '' })), []);
  return { ...state, run, reset };
}
