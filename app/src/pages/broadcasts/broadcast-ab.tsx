import type { components } from '../../api/openapi.js';
import { percent } from '../../components/stats-figures.js';
import { DataTable } from '../../ui/data-table.js';
import { formatTime, When } from '../../ui/when.js';
import { countText } from '../segments/segment-text.js';
import type { Broadcast } from './broadcast-text.js';

type AbResult = components['schemas']['BroadcastAbResult'];
type AbVariant = components['schemas']['BroadcastAbVariant'];
type Metric = AbResult['metric'];

/** The metric in words, as the sentence about the winner says it. */
export const METRIC_TEXT: Record<Metric, string> = {
  human_opens: 'opens by people',
  human_clicks: 'clicks by people',
  conversions: 'conversions',
};

/** A variant's rate of the test's metric (per e-mail delivered, as the API counts it). */
const rateOf = (variant: AbVariant, metric: Metric): number =>
  metric === 'human_opens'
    ? variant.human_open_rate
    : metric === 'human_clicks'
      ? variant.human_click_rate
      : variant.conversion_rate;

/** Variant 0 is A, 1 is B… (at most four). */
export const variantLabel = (variant: number): string => String.fromCharCode(65 + variant);

/** When the winner is chosen: the start plus `decide_after_hours` (undefined before the start). */
export function decisionDue(startedAt: string | null, hours: number): string | undefined {
  if (!startedAt) return undefined;
  return new Date(Date.parse(startedAt) + hours * 3_600_000).toISOString().replace(/\.\d{3}Z$/, 'Z');
}

/**
 * The sentence about the decision: the winner and its rate against the others' (the rates it was chosen on, else the
 * current ones), or when it will be chosen.
 */
export function decisionText(ab: AbResult, startedAt: string | null, cancelled = false): string {
  const metric = METRIC_TEXT[ab.metric];
  if (ab.winner === null && cancelled) return 'No winner was chosen: the broadcast was cancelled first.';
  if (ab.winner !== null) {
    const rates = ab.decided_rates ?? ab.variants.map((variant) => rateOf(variant, ab.metric));
    const won = rates[ab.winner];
    const rest = rates.filter((_, at) => at !== ab.winner);
    if (rest.every((rate) => rate === won))
      return `Variant ${variantLabel(ab.winner)} won, the first variant, by a tie on ${metric}: ${percent(won)} each.`;
    const others = rest.map((rate) => percent(rate));
    return `Variant ${variantLabel(ab.winner)} won on ${metric}: ${percent(won)} vs ${others.join(', ')}.`;
  }
  const due = decisionDue(startedAt, ab.decide_after_hours);
  return due
    ? `Deciding at ${formatTime(due)}, on ${metric} per e-mail delivered.`
    : `Decided ${ab.decide_after_hours} ${ab.decide_after_hours === 1 ? 'hour' : 'hours'} after the start, on ${metric} per e-mail delivered.`;
}

/**
 * A broadcast's A/B test: the share tested, each variant's sends and rate of the metric, and the winner once chosen
 * (or when it will be). The variants' figures count the test share only: the rest, sent the winner, are in the totals.
 */
export function AbReport({ broadcast }: { broadcast: Broadcast }) {
  const ab = broadcast.ab;
  if (!ab) return null;
  return (
    <section class="card page-section" aria-labelledby="bc-ab-title">
      <h2 id="bc-ab-title">A/B test</h2>
      <p id="bc-ab-decision" class={ab.winner !== null ? 'success' : undefined}>
        {decisionText(ab, broadcast.started_at, broadcast.status === 'cancelled')}
      </p>
      <dl class="figures">
        <dt>Tested on</dt>
        <dd>
          {ab.test_percent} % of the audience, split evenly; the other {100 - ab.test_percent} % get the winner
        </dd>
        <dt>Winner chosen</dt>
        <dd>
          {ab.decided_at ? (
            <When at={ab.decided_at} />
          ) : (
            `${ab.decide_after_hours} ${ab.decide_after_hours === 1 ? 'hour' : 'hours'} after the start`
          )}
        </dd>
      </dl>
      <DataTable
        id="bc-ab-table"
        label="A/B variants table"
        caption={`Each variant among the test share: ${METRIC_TEXT[ab.metric]} per e-mail delivered`}
        rows={ab.variants}
        rowKey={(variant) => variant.variant}
        columns={[
          {
            head: 'Variant',
            rowHeader: true,
            class: 'wrap-anywhere',
            cell: (variant) => (
              <>
                {variantLabel(variant.variant)}
                {ab.winner === variant.variant && ' (winner)'}: {variant.subject ?? 'the template’s subject'}{' '}
                <span class="hint">template #{variant.template_id}</span>
              </>
            ),
          },
          { head: 'Sent', cell: (variant) => countText(variant.sent) },
          { head: 'Delivered', cell: (variant) => countText(variant.delivered) },
          { head: rateHead(ab.metric), cell: (variant) => percent(rateOf(variant, ab.metric)) },
        ]}
      />
    </section>
  );
}

const rateHead = (metric: Metric): string =>
  metric === 'human_opens' ? 'Open rate' : metric === 'human_clicks' ? 'Click rate' : 'Conversion rate';
