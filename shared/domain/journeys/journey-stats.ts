import type { Clock } from '../../platform.js';
import { rangeOf } from '../stats/stats-range.js';
import { ARM_PREFIX, JOURNEY_STEP_COUNTERS } from '../stats/counter-facts.js';
import type { StatsStore } from '../stats/stats-store.js';
import type { JourneyStore } from './journey-store.js';
import { findOwnJourney, refuseSystemField } from './journey-ownership.js';
import { armTotalsOf, type SplitWinner } from './split-winner.js';

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
 * GET /client/journeys/{id}/stats: per step, the counters of the days asked summed, and the runs there now; per split,
 * its arms' totals and its winner. Reads:
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
  const { days, now, arms } = await deps.stats.readJourney(clientId, id, from, to);
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
  const splits = splitStatsOf(Array.isArray(draftSteps) ? draftSteps : [], arms, journey.split_winners ?? {});
  return { journey_id: id, from, to, counted_at, steps: [...steps.values()], splits };
}

/**
 * Each split's arms with their totals since the split began (whatever the range: a winner is read from them) and its
 * winner once decided: the draft's splits in order with their arms, then any other split counted or decided.
 */
function splitStatsOf(
  draftSteps: readonly unknown[],
  gauge: Readonly<Record<string, number>>,
  winners: Readonly<Record<string, SplitWinner>>,
) {
  const armsBySplit = new Map<string, string[]>();
  const armsOf = (split: string) => {
    const arms = armsBySplit.get(split) ?? [];
    armsBySplit.set(split, arms);
    return arms;
  };
  const addArm = (split: string, arm: string) => {
    const arms = armsOf(split);
    if (!arms.includes(arm)) arms.push(arm);
  };
  for (const raw of draftSteps) {
    const step = raw as { id?: unknown; type?: unknown; arms?: unknown };
    if (step?.type !== 'split' || typeof step.id !== 'string') continue;
    armsOf(step.id);
    for (const arm of Array.isArray(step.arms) ? step.arms : [])
      if (typeof (arm as { name?: unknown })?.name === 'string') addArm(step.id, (arm as { name: string }).name);
  }
  for (const name of Object.keys(gauge)) {
    const [split, metric, ...arm] = name.slice(ARM_PREFIX.length).split(':');
    if (split && metric !== 'since' && arm.length > 0) addArm(split, arm.join(':'));
  }
  for (const split of Object.keys(winners)) armsOf(split);
  return [...armsBySplit].map(([stepId, arms]) => ({
    step_id: stepId,
    arms: armTotalsOf(gauge, stepId, arms).map((t) => ({
      ...t,
      human_open_rate: ratio(t.human_opens, t.sent),
      human_click_rate: ratio(t.human_clicks, t.sent),
      conversion_rate: ratio(t.converted, t.sent),
    })),
    winner: winners[stepId] ?? null,
  }));
}

const ratio = (count: number, sent: number) => (sent > 0 ? Math.round((count / sent) * 10_000) / 10_000 : 0);
