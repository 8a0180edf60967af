import { useLoad } from '../../data/use-load.js';

/** Waits `ms`, or rejects as soon as `signal` aborts (a newer question came before the pause ended). */
export const pause = (ms: number, signal: AbortSignal): Promise<void> =>
  new Promise((resolve, reject) => {
    const timer = setTimeout(resolve, ms);
    signal.addEventListener(
      'abort',
      () => {
        clearTimeout(timer);
        reject(signal.reason);
      },
      { once: true },
    );
  });

/**
 * Reads a record again `ms` after each answer while `active` (a segment building, a broadcast sending): a paused read
 * keyed by the last answer (or failure), so each new answer starts the next pause and leaving the page, or the record
 * settling, aborts the one waiting. No timer outlives the page.
 */
export function useRereadWhile(
  active: boolean,
  ms: number,
  loaded: { data: unknown; failure: unknown; reload: () => void },
): void {
  useLoad(
    async (signal) => {
      if (!active) return;
      await pause(ms, signal);
      loaded.reload();
    },
    [active, loaded.data, loaded.failure],
  );
}
