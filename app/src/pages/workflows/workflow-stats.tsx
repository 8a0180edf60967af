import { type ComponentChildren, Fragment } from 'preact';
import { useMemo, useState } from 'preact/hooks';
import type { Api } from '../../api/client.js';
import { type ChartSeries, StatsChart, StatsTable } from '../../components/stats-chart.js';
import {
  percent,
  RANGES,
  type RangeDays,
  ReputationFigures,
  rangeOf,
  StatsFreshness,
} from '../../components/stats-figures.js';
import { answerOf } from '../../data/answer.js';
import { useLoad } from '../../data/use-load.js';
import { LoadStatus } from '../../ui/status.js';
import type { WorkflowStats } from './workflow-text.js';

const STEP_NAMES: Record<WorkflowStats['funnel'][number]['step'], string> = {
  triggered: 'Triggered',
  sent: 'Sent',
  delivered: 'Delivered',
  opened: 'Opened (humans)',
  clicked: 'Clicked (humans)',
};

/** The workflow's chart: what it started, sent and what became of it (humans only), and its conversions. */
export function workflowSeriesOf(stats: WorkflowStats): ChartSeries[] {
  const of = (pick: (counts: WorkflowStats['totals']) => number) => stats.series.map((point) => pick(point.counts));
  return [
    { label: 'Triggered', stroke: '#5c5c5c', values: of((c) => c.executions) },
    { label: 'Sent', stroke: '#1f5fbf', values: of((c) => c.sent) },
    { label: 'Delivered', stroke: '#1b7f3b', values: of((c) => c.delivered) },
    { label: 'Human opens', stroke: '#8a4baf', values: of((c) => c.opened) },
    { label: 'Human clicks', stroke: '#b35900', values: of((c) => c.clicked) },
    { label: 'Conversions', stroke: '#b3261e', values: of((c) => c.converted) },
  ];
}

/** A card of figures under its heading (`id` names it for the section's label). */
function FiguresCard({ id, title, children }: { id: string; title: string; children: ComponentChildren }) {
  return (
    <section class="card" aria-labelledby={id}>
      <h3 id={id}>{title}</h3>
      {children}
    </section>
  );
}

/** Terms and their figures, as a `<dl class="figures">`. */
function Figures({ rows }: { rows: readonly (readonly [ComponentChildren, ComponentChildren])[] }) {
  return (
    <dl class="figures">
      {rows.map(([term, figure], at) => (
        <Fragment key={at}>
          <dt>{term}</dt>
          <dd>{figure}</dd>
        </Fragment>
      ))}
    </dl>
  );
}

/** A count by reason, biggest first (a hint when there is none). */
function Reasons(props: { id: string; title: string; reasons: Record<string, number>; none: string }) {
  const rows = Object.entries(props.reasons)
    .filter(([, count]) => count > 0)
    .sort((a, b) => b[1] - a[1]);
  return (
    <FiguresCard id={props.id} title={props.title}>
      {rows.length === 0 ? (
        <p class="hint">{props.none}</p>
      ) : (
        <Figures rows={rows.map(([reason, count]) => [<code key={reason}>{reason}</code>, count] as const)} />
      )}
    </FiguresCard>
  );
}

/** GET /client/workflows/{id}/stats over the last 7, 30 or 90 days: the funnel, the figures, the chart, skip and fail reasons. */
export function WorkflowStatsSection({ api, workflowId }: { api: Api; workflowId: number }) {
  const [days, setDays] = useState<RangeDays>(30);
  // Another period keeps the figures on screen until its own are read.
  const loaded = useLoad(
    async (signal) =>
      (
        await answerOf(
          api.GET('/api/v1/client/workflows/{workflow_id}/stats', {
            params: { path: { workflow_id: String(workflowId) }, query: rangeOf(days) },
            signal,
          }),
          'Reading the statistics',
        )
      ).data,
    [api, workflowId, days],
    { keep: true },
  );
  const stats = loaded.data;

  const periods = useMemo(() => stats?.series.map((point) => point.period) ?? [], [stats]);
  const series = useMemo(() => (stats ? workflowSeriesOf(stats) : []), [stats]);

  return (
    <section class="page-section" aria-labelledby="wf-stats-title">
      <div class="page-head">
        <h2 id="wf-stats-title">Funnel and conversions</h2>
        <fieldset class="ranges">
          <legend>Period</legend>
          {RANGES.map((range) => (
            <label key={range}>
              <input
                type="radio"
                name="wf-range"
                value={range}
                checked={days === range}
                onChange={() => setDays(range)}
              />
              {range} days
            </label>
          ))}
        </fieldset>
      </div>
      <LoadStatus loaded={loaded} />
      {stats && <StatsBody stats={stats} periods={periods} series={series} days={days} />}
    </section>
  );
}

function StatsBody({
  stats,
  periods,
  series,
  days,
}: {
  stats: WorkflowStats;
  periods: string[];
  series: ChartSeries[];
  days: RangeDays;
}) {
  const { totals, rates, funnel } = stats;
  const top = Math.max(1, ...funnel.map((step) => step.count));
  const caption = `This workflow per UTC day, last ${days} days`;
  return (
    <>
      <ol class="funnel" id="wf-funnel" aria-label={`Funnel, last ${days} days`}>
        {funnel.map((step, index) => {
          const before = index > 0 ? funnel[index - 1]!.count : undefined;
          return (
            <li key={step.step} class="funnel-step">
              <span class="funnel-step-name">{STEP_NAMES[step.step]}</span>
              <span class="funnel-step-count">{step.count}</span>
              <span class="funnel-bar" aria-hidden="true">
                <span style={{ width: `${(step.count / top) * 100}%` }} />
              </span>
              <small class="funnel-step-share">
                {before === undefined ? '' : `${percent(before === 0 ? null : step.count / before)} of the step before`}
              </small>
            </li>
          );
        })}
      </ol>
      <div class="cards">
        <FiguresCard id="wf-goals-title" title="Goals">
          <Figures
            rows={[
              [
                'Converted',
                <>
                  {totals.converted} <small>({percent(rates.conversion_rate)} of sent)</small>
                </>,
              ],
              ['Exited before sending', totals.exited],
            ]}
          />
          <p class="hint">
            A conversion is an exit event within the conversion window after this workflow’s e-mail; an exit before the
            e-mail went out cancels it.
          </p>
        </FiguresCard>
        <FiguresCard id="wf-rates-title" title="Rates">
          <dl class="figures">
            <dt>Delivered</dt>
            <dd>{percent(rates.delivery_rate)}</dd>
            <dt>Human opens</dt>
            <dd>{percent(rates.open_rate)}</dd>
            <dt>Human clicks</dt>
            <dd>
              {percent(rates.click_rate)} <small>({percent(rates.click_to_open_rate)} of opens)</small>
            </dd>
            <ReputationFigures stats={stats} />
            <dt>Bot opens, apart</dt>
            <dd>
              {totals.bot_opened} <small>({percent(rates.bot_open_share)} of all opens)</small>
            </dd>
            <dt>Bot clicks, apart</dt>
            <dd>{totals.bot_clicked}</dd>
          </dl>
        </FiguresCard>
        <FiguresCard id="wf-runs-title" title="Runs">
          <Figures
            rows={[
              ['Triggered', totals.executions],
              ['Skipped', totals.skipped],
              ['Failed', totals.failed],
              ['Put off', totals.deferred],
            ]}
          />
        </FiguresCard>
      </div>
      <div class="cards reasons">
        <Reasons
          id="wf-skipped-title"
          title="Why runs were skipped"
          reasons={stats.skipped_reasons}
          none="No run was skipped."
        />
        <Reasons id="wf-failed-title" title="Why runs failed" reasons={stats.failed_reasons} none="No run failed." />
      </div>
      <StatsChart periods={periods} series={series} label={caption} />
      <StatsFreshness />
      <details id="wf-stats-table">
        <summary>The figures as a table</summary>
        <StatsTable periods={periods} series={series} caption={caption} />
      </details>
    </>
  );
}
