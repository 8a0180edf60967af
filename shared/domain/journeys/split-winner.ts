/**
 * A split's automatic winner: chosen once from the arms' totals the day-counters projection keeps on the journey's
 * gauge (`x_<split>:<metric>:<arm>`), written once on the client's journey index (where the engine reads it with the
 * run, no extra request) and on the journey (where its stats read it).
 */
import { ARM_PREFIX, armAttribute, armSinceAttribute, type ArmMetric } from '../stats/counter-facts.js';
import { highestRateIndex, rateOf } from '../stats/highest-rate.js';
import type { SplitWinnerMetric, SplitWinnerRule, StepId } from './definition/types.js';

/** A split's winner as decided: the arm, on what, each arm's rate and e-mails then, and when. */
export interface SplitWinner {
  arm: string;
  metric: SplitWinnerMetric;
  /** Each arm's metric per e-mail sent when it was decided (4 decimals). */
  rates: Record<string, number>;
  /** Each arm's e-mails sent when it was decided. */
  sent: Record<string, number>;
  decided_at: string;
}

/** What the index keeps of a split with a winner rule of the live version: its arms in order, and the rule. */
export interface SplitRule {
  arms: string[];
  winner: SplitWinnerRule;
}

/** The gauge's counter a metric is read from. */
const COUNTER_OF: Record<SplitWinnerMetric, ArmMetric> = {
  human_opens: 'human_opens',
  human_clicks: 'human_clicks',
  conversions: 'converted',
};

/** One arm's totals of a split, as the gauge holds them. */
export interface ArmTotals {
  arm: string;
  runs: number;
  sent: number;
  human_opens: number;
  human_clicks: number;
  converted: number;
}

/** Each arm's totals at `split` from the gauge's `x_` attributes, in the arms' order. */
export function armTotalsOf(
  gauge: Readonly<Record<string, number>>,
  split: StepId,
  arms: readonly string[],
): ArmTotals[] {
  const read = (metric: ArmMetric, arm: string) => gauge[armAttribute(split, metric, arm)] ?? 0;
  return arms.map((arm) => ({
    arm,
    runs: read('runs', arm),
    sent: read('sent', arm),
    human_opens: read('human_opens', arm),
    human_clicks: read('human_clicks', arm),
    converted: read('converted', arm),
  }));
}

/** The split ids whose arms the gauge counts (`x_<split>:…`), each once. */
export const countedSplitsOf = (gauge: Readonly<Record<string, number>>): StepId[] => [
  ...new Set(
    Object.keys(gauge)
      .filter((name) => name.startsWith(ARM_PREFIX))
      .map((name) => name.slice(ARM_PREFIX.length).split(':')[0]!),
  ),
];

/**
 * The winner of a split under its rule, or undefined while it is too early: every arm needs `min_sends_per_arm`
 * e-mails sent, and `min_hours` must have passed since the split's first run. The highest rate (metric per e-mail
 * sent, compared exactly, not rounded) wins; on a tie, the arm listed first in the split.
 */
export function decideSplitWinner(
  rule: SplitRule,
  split: StepId,
  gauge: Readonly<Record<string, number>>,
  now: Date,
): SplitWinner | undefined {
  const totals = armTotalsOf(gauge, split, rule.arms);
  if (totals.length === 0 || totals.some((t) => t.sent < rule.winner.min_sends_per_arm)) return undefined;
  const since = gauge[armSinceAttribute(split)];
  const minMs = (rule.winner.min_hours ?? 0) * 3_600_000;
  if (minMs > 0 && (since === undefined || now.getTime() - since < minMs)) return undefined;
  const counter = COUNTER_OF[rule.winner.metric];
  const best = totals[highestRateIndex(totals.map((t) => ({ count: t[counter], base: t.sent })))]!;
  return {
    arm: best.arm,
    metric: rule.winner.metric,
    rates: Object.fromEntries(totals.map((t) => [t.arm, rateOf(t[counter], t.sent)])),
    sent: Object.fromEntries(totals.map((t) => [t.arm, t.sent])),
    decided_at: now.toISOString(),
  };
}

/** The split rules of a definition's splits that carry a winner, by step id (the index keeps them). */
export function splitRulesOf(
  steps: readonly { id: StepId; type: string; arms?: { name: string }[]; winner?: SplitWinnerRule }[],
) {
  const rules: Record<StepId, SplitRule> = {};
  for (const step of steps)
    if (step.type === 'split' && step.winner && step.arms)
      rules[step.id] = { arms: step.arms.map((a) => a.name), winner: { ...step.winner } };
  return rules;
}

/**
 * The winners a newly compiled index entry keeps from the entry it replaces: those of splits the new version still
 * has with a winner rule on the same metric and the winning arm still there. A split rewritten otherwise starts over.
 */
export function keptWinners(
  previous: Readonly<Record<StepId, SplitWinner>> | undefined,
  rules: Readonly<Record<StepId, SplitRule>>,
): Record<StepId, SplitWinner> {
  const kept: Record<StepId, SplitWinner> = {};
  for (const [split, winner] of Object.entries(previous ?? {})) {
    const rule = rules[split];
    if (rule && rule.winner.metric === winner.metric && rule.arms.includes(winner.arm)) kept[split] = winner;
  }
  return kept;
}
