import { STATS_FRESHNESS } from '../../../shared/public/stats-rules.js';

/** The periods a statistics view offers, in days (today included). */
export const RANGES = [7, 30, 90] as const;
export type RangeDays = (typeof RANGES)[number];

/** `from`..`to` of the last `days` UTC days, today included. */
export function rangeOf(days: number, now: Date = new Date()): { from: string; to: string } {
  const to = now.toISOString().slice(0, 10);
  const from = new Date(Date.parse(`${to}T00:00:00Z`) - (days - 1) * 86_400_000).toISOString().slice(0, 10);
  return { from, to };
}

/** A rate of the API (0..1) as people read it; `—` when there is none (nothing to divide by). */
export const percent = (rate: number | null | undefined): string =>
  rate === null || rate === undefined ? '—' : `${(rate * 100).toFixed(1)} %`;

/** The counts and rates both the account's and a workflow's statistics carry. */
interface ReputationCounts {
  totals: { bounced_hard: number; bounced_soft: number; complained: number };
  rates: { bounce_rate: number | null; complaint_rate: number | null; unsubscribe_rate: number | null };
}

/** Bounces, complaints (what SES judges a sender by) and unsubscribes, as terms of a `<dl class="figures">`. */
export function ReputationFigures({ stats }: { stats: ReputationCounts }) {
  const { totals, rates } = stats;
  return (
    <>
      <dt>Bounces</dt>
      <dd>
        {totals.bounced_hard + totals.bounced_soft} <small>({percent(rates.bounce_rate)})</small>
      </dd>
      <dt>Complaints</dt>
      <dd>
        {totals.complained} <small>({percent(rates.complaint_rate)})</small>
      </dd>
      <dt>Unsubscribes</dt>
      <dd>{percent(rates.unsubscribe_rate)}</dd>
    </>
  );
}

/** How fresh the figures are: the counts follow the facts through the change stream, a few seconds behind. */
export function StatsFreshness() {
  return <p class="hint">{STATS_FRESHNESS}</p>;
}
