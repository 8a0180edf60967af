import type { Clock } from '../../platform.js';
import { rangeOf } from '../stats/get-stats.js';
import { JOURNEY_STEP_COUNTERS } from '../stats/counter-facts.js';
import type { StatsStore } from '../stats/stats-store.js';
import type { JourneyStore } from './journey-store.js';
import { refuseSystemField } from './edit-journey.js';
import { findOwnJourney } from './journey-view.js';

export interface JourneyStatsDeps {
  journeys: JourneyStore;
  stats: StatsStore;
  clock: Clock;
}

export interface JourneyStepStats {
  step_id: string;
  entered: number;
  waiting: number;
  left: number;
  sent: number;
  /** Of the step's e-mails: delivered, opened and clicked by a human (once per e-mail), opened and clicked by a machine. */
  delivered: number;
  human_opens: number;
  human_clicks: number;
  machine_opens: number;
  machine_clicks: number;
  /** Its e-mails an exit event converted within the journey's conversion window. */
  converted: number;
  completed: number;
  exited: number;
  ended: number;
  /** Runs that left the step by each way: a branch's name or `otherwise`, a split arm's name, on_event / on_timeout. */
  ways: Record<string, number>;
}

const FIXED = JOURNEY_STEP_COUNTERS;

/**
 * GET /client/journeys/{id}/stats: per step, the counters of the days asked summed, and the runs there now. Reads:
 * the journey (it must be the client's), then its day rows and its gauge in one wave. Steps in the draft's order,
 * then any other step counted (one a later version removed).
 */
export async function getJourneyStats(
  deps: JourneyStatsDeps,
  clientId: number,
  id: number,
  query: { from?: string | undefined; to?: string | undefined },
) {
  refuseSystemField(id, 'id');
  const { from, to } = rangeOf(query, deps.clock.now());
  const journey = await findOwnJourney(deps, clientId, id);
  const { days, now } = await deps.stats.readJourney(clientId, id, from, to);
  const counted_at = deps.clock.now().toISOString();
  const steps = new Map<string, JourneyStepStats>();
  const stepOf = (stepId: string): JourneyStepStats => {
    let step = steps.get(stepId);
    if (!step) {
      step = {
        step_id: stepId,
        entered: 0,
        waiting: 0,
        left: 0,
        sent: 0,
        delivered: 0,
        human_opens: 0,
        human_clicks: 0,
        machine_opens: 0,
        machine_clicks: 0,
        converted: 0,
        completed: 0,
        exited: 0,
        ended: 0,
        ways: {},
      };
      steps.set(stepId, step);
    }
    return step;
  };
  const draftSteps = (journey.draft as { steps?: unknown } | undefined)?.steps;
  if (Array.isArray(draftSteps))
    for (const s of draftSteps)
      if (s && typeof (s as { id?: unknown }).id === 'string') stepOf((s as { id: string }).id);
  for (const row of days) {
    const step = stepOf(row.stepId);
    for (const [name, n] of Object.entries(row.counts)) {
      if ((FIXED as readonly string[]).includes(name)) step[name as (typeof FIXED)[number]] += n;
      else if (name.startsWith('v_')) step.ways[name.slice(2)] = (step.ways[name.slice(2)] ?? 0) + n;
    }
  }
  for (const [stepId, n] of Object.entries(now)) stepOf(stepId).waiting = n;
  return { journey_id: id, from, to, counted_at, steps: [...steps.values()] };
}
