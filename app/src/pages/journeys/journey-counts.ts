import type { Api } from '../../api/client.js';
import { answerOf } from '../../data/answer.js';
import { useLoad } from '../../data/use-load.js';

/** One step's figures as the outline shows them: runs on it now, and what it did in the stats' default 30 days. */
export interface StepCounts {
  waiting: number;
  entered: number;
  sent: number;
}

/**
 * The live counts of a published journey of the client's, by step id (GET …/stats: one read of the day rows and the
 * gauge). Nothing for a draft never published or a system journey (their figures are the workflow's stats), and
 * nothing when the read fails: the counts are an aid on the outline, never in the way of editing.
 */
export function useStepCounts(api: Api, id: string, published: boolean): ReadonlyMap<string, StepCounts> | undefined {
  const loaded = useLoad(
    async (signal) => {
      if (!published) return undefined;
      const answer = await answerOf(
        api.GET('/api/v1/client/journeys/{id}/stats', { params: { path: { id } }, signal }),
        'Reading the counts',
      ).catch(() => undefined);
      return answer
        ? new Map(answer.data.steps.map((s) => [s.step_id, { waiting: s.waiting, entered: s.entered, sent: s.sent }]))
        : undefined;
    },
    [api, id, published],
  );
  return loaded.data;
}
