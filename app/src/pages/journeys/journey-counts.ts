import { useEffect, useState } from 'preact/hooks';
import type { Api } from '../../api/client.js';
import { answerOf } from '../../data/answer.js';
import { useLoad } from '../../data/use-load.js';
import { useRereadWhile } from '../segments/reread.js';

/** How often a published journey's counts are read again while its page is shown. */
export const COUNTS_REREAD_MS = 10_000;

/** One step's figures as the outline shows them: runs on it now, and what it did in the stats' default 30 days. */
export interface StepCounts {
  waiting: number;
  entered: number;
  sent: number;
}

/** The counts by step id and when they were read (ms since the epoch); `failedAt` when a later read failed. */
export interface LiveCounts {
  steps: ReadonlyMap<string, StepCounts>;
  readAt: number;
  failedAt?: number;
}

/** Whether the browser shows the page (not a tab in the background, not a minimised window). */
function useShown(): boolean {
  const [shown, setShown] = useState(() => document.visibilityState !== 'hidden');
  useEffect(() => {
    const follow = () => setShown(document.visibilityState !== 'hidden');
    document.addEventListener('visibilitychange', follow);
    return () => document.removeEventListener('visibilitychange', follow);
  }, []);
  return shown;
}

/**
 * The live counts of a published journey of the client's, by step id (GET …/stats: one read of the day rows and the
 * gauge), read again every COUNTS_REREAD_MS while the page is shown; leaving the page stops it. Only the counts are
 * read again, never the journey, so a draft being edited keeps what was typed. Nothing for a draft never published or
 * a system journey (their figures are the workflow's stats). A failed read shows nothing new: the counts are an aid on
 * the flow, never in the way of editing, so the last ones read stay (with when) until a read answers again.
 */
export function useStepCounts(api: Api, id: string, published: boolean): LiveCounts | undefined {
  const loaded = useLoad(
    async (signal): Promise<LiveCounts | undefined> => {
      if (!published) return undefined;
      try {
        const answer = await answerOf(
          api.GET('/api/v1/client/journeys/{id}/stats', { params: { path: { id } }, signal }),
          'Reading the counts',
        );
        return {
          steps: new Map(
            answer.data.steps.map((s) => [s.step_id, { waiting: s.waiting, entered: s.entered, sent: s.sent }]),
          ),
          readAt: Date.now(),
        };
      } catch (error) {
        // A new object each time, so the next read is still planned (the reread is keyed by the last answer).
        if (loaded.data) return { ...loaded.data, failedAt: Date.now() };
        throw error;
      }
    },
    [api, id, published],
  );
  const shown = useShown();
  useRereadWhile(published && shown, COUNTS_REREAD_MS, loaded);
  return loaded.data;
}
