import { useMemo, useState } from 'preact/hooks';
import {
  BOUNCE_RATE_LIMIT,
  COMPLAINT_RATE_LIMIT,
  MINIMUM_SAMPLE_SENDS,
  WARNING_SHARE,
} from '../../../shared/domain/tracking/deliverability.js';
import { SES_SIMULATOR_DOMAIN } from '../../../shared/public/domain-rules.js';
import { EXECUTION_STATUS } from '../../../shared/public/execution-rules.js';
import type { Api } from '../api/client.js';
import type { components } from '../api/openapi.js';
import { Link } from '../components/link.js';
import { type ChartSeries, StatsChart, StatsTable } from '../components/stats-chart.js';
import {
  percent,
  RANGES,
  type RangeDays,
  ReputationFigures,
  rangeOf,
  StatsFreshness,
} from '../components/stats-figures.js';
import { useLoad } from '../data/use-load.js';
import { PageHead } from '../ui/page-head.js';
import { LoadStatus } from '../ui/status.js';
import { formatTime } from '../ui/when.js';

type Stats = components['schemas']['Stats'];
type Deliverability = components['schemas']['Deliverability'];
type Sending = components['schemas']['Sending'];

/** The failed executions, as the executions list filters them. */
const FAILED = `${EXECUTION_STATUS.failed}` as const;

interface Overview {
  stats: Stats;
  /** null: the client has no settings yet (GET /client/settings answers 404 until the first PATCH creates them). */
  deliverability: Deliverability | null;
  /** Who the e-mails are From, the sandbox and the SES tenant; null without settings, as above. */
  sending: Sending | null;
  failedExecutions: number;
}

/** The chart's lines: what was sent and what became of it (humans only for opens and clicks). */
export function chartSeriesOf(stats: Stats): ChartSeries[] {
  const of = (pick: (counts: Stats['totals']) => number) => stats.series.map((point) => pick(point.counts));
  return [
    { label: 'Sent', stroke: '#1f5fbf', values: of((c) => c.sent) },
    { label: 'Delivered', stroke: '#1b7f3b', values: of((c) => c.delivered) },
    { label: 'Human opens', stroke: '#8a4baf', values: of((c) => c.opened) },
    { label: 'Human clicks', stroke: '#b35900', values: of((c) => c.clicked) },
    { label: 'Bounces', stroke: '#b3261e', values: of((c) => c.bounced_hard + c.bounced_soft) },
    { label: 'Complaints', stroke: '#5c5c5c', values: of((c) => c.complained) },
  ];
}

/** Nothing happened in the range: no event received and nothing sent. */
export const isEmpty = (stats: Stats): boolean =>
  stats.totals.sent === 0 && Object.values(stats.events).every((count) => count === 0);

async function loadOverview(api: Api, days: RangeDays, signal: AbortSignal): Promise<Overview> {
  const [stats, settings, failed] = await Promise.all([
    api.GET('/api/v1/client/stats', { params: { query: rangeOf(days) }, signal }),
    api.GET('/api/v1/client/settings', { signal }),
    api.GET('/api/v1/client/executions', { params: { query: { status: FAILED, per_page: '1' } }, signal }),
  ]);
  if (!stats.data) throw new Error(stats.error?.message ?? `Statistics could not be read (${stats.response.status})`);
  if (!settings.data && settings.response.status !== 404) {
    throw new Error(settings.error?.message ?? `Settings could not be read (${settings.response.status})`);
  }
  if (!failed.data)
    throw new Error(failed.error?.message ?? `Executions could not be read (${failed.response.status})`);
  return {
    stats: stats.data.data,
    deliverability: settings.data?.data.deliverability ?? null,
    sending: settings.data?.data.sending ?? null,
    failedExecutions: failed.data.meta.total,
  };
}

/** The overview: the range's chart, its rates with machines apart, deliverability and failures. */
export function OverviewPage({ api }: { api: Api }) {
  const [days, setDays] = useState<RangeDays>(30);
  // The figures of the period before stay while another period is read.
  const overview = useLoad((signal) => loadOverview(api, days, signal), [api, days], { keep: true });

  return (
    <section aria-labelledby="overview-title">
      <PageHead id="overview-title" title="Overview">
        <fieldset class="ranges">
          <legend>Period</legend>
          {RANGES.map((range) => (
            <label key={range}>
              <input type="radio" name="range" value={range} checked={days === range} onChange={() => setDays(range)} />
              {range} days
            </label>
          ))}
        </fieldset>
        <button type="button" class="refresh" onClick={overview.reload}>
          Refresh
        </button>
      </PageHead>
      <LoadStatus loaded={overview} />
      {overview.data && <OverviewBody overview={overview.data} days={days} />}
    </section>
  );
}

function OverviewBody({ overview, days }: { overview: Overview; days: RangeDays }) {
  const { stats, deliverability, sending, failedExecutions } = overview;
  const periods = useMemo(() => stats.series.map((point) => point.period), [stats]);
  const series = useMemo(() => chartSeriesOf(stats), [stats]);
  const { totals, rates } = stats;
  return (
    <>
      {sending?.sandbox && <SandboxBanner sending={sending} />}
      {isEmpty(stats) ? (
        <FirstEvent />
      ) : (
        <>
          <StatsChart periods={periods} series={series} label={`E-mails per UTC day, last ${days} days`} />
          <StatsFreshness />
          <details>
            <summary>The figures as a table</summary>
            <StatsTable periods={periods} series={series} caption={`E-mails per UTC day, last ${days} days`} />
          </details>
        </>
      )}
      <div class="cards">
        <section class="card" aria-labelledby="rates-title">
          <h2 id="rates-title">Rates, last {days} days</h2>
          <dl class="figures">
            <dt>Sent</dt>
            <dd>{totals.sent}</dd>
            <dt>Delivered</dt>
            <dd>
              {totals.delivered} <small>({percent(rates.delivery_rate)})</small>
            </dd>
            <dt>Human opens</dt>
            <dd>
              {totals.opened} <small>({percent(rates.open_rate)})</small>
            </dd>
            <dt>Human clicks</dt>
            <dd>
              {totals.clicked}{' '}
              <small>
                ({percent(rates.click_rate)}; {percent(rates.click_to_open_rate)} of opens)
              </small>
            </dd>
            <ReputationFigures stats={stats} />
          </dl>
          <h3>Machines, counted apart</h3>
          <p class="hint">
            Mail scanners and privacy proxies open and click on their own; they are not in the rates above.
          </p>
          <dl class="figures">
            <dt>Bot opens</dt>
            <dd>
              {totals.bot_opened} <small>({percent(rates.bot_open_share)} of all opens)</small>
            </dd>
            <dt>Bot clicks</dt>
            <dd>{totals.bot_clicked}</dd>
          </dl>
        </section>
        <DeliverabilityCard deliverability={deliverability} tenant={sending?.tenant ?? null} />
        <section class="card" aria-labelledby="failed-title">
          <h2 id="failed-title">Failed executions</h2>
          <p class="big">
            <Link page="executions" params={{ status: FAILED }}>
              {failedExecutions}
            </Link>
          </p>
          <p class="hint">
            {failedExecutions === 0
              ? 'None: every workflow run so far completed, waits or was skipped for a reason.'
              : 'Runs that could not send. Each one can be retried (POST /api/v1/client/executions/{id}/retry).'}
          </p>
        </section>
      </div>
    </>
  );
}

const STATUS_TEXT: Record<Deliverability['status'], string> = {
  healthy: 'Healthy',
  warning: 'Warning: half-way to a limit',
  paused: 'Sending paused',
};

/**
 * While no domain of the client is verified: who its e-mails come from and to whom they may go, and where to leave the
 * sandbox.
 */
function SandboxBanner({ sending }: { sending: Sending }) {
  return (
    <section class="card banner page-section" aria-labelledby="sandbox-title">
      <h2 id="sandbox-title">Sandbox</h2>
      <p>
        You send from <strong>{sending.from_address}</strong> as <strong>{sending.from_name}</strong>, only to your
        dashboard users and SES's mailbox simulator (…@{SES_SIMULATOR_DOMAIN}): e-mails to anyone else are skipped.{' '}
        <Link page="domains">Add and verify your domain</Link> to send to your contacts.
      </p>
    </section>
  );
}

/** SES paused the client's tenant: its e-mails wait until SES enables it again. */
function TenantPaused({ tenant }: { tenant: Sending['tenant'] }) {
  return (
    <p class="status status-paused">
      SES paused sending for this account{tenant.paused_at ? ` since ${formatTime(tenant.paused_at)}` : ''}
      {tenant.paused_reason ? `: ${tenant.paused_reason}` : ''}. E-mails wait; nothing is lost.
    </p>
  );
}

function DeliverabilityCard(props: { deliverability: Deliverability | null; tenant: Sending['tenant'] | null }) {
  const { deliverability: d, tenant } = props;
  const paused = tenant?.status === 'paused' ? <TenantPaused tenant={tenant} /> : null;
  if (!d) {
    return (
      <section class="card" aria-labelledby="deliverability-title">
        <h2 id="deliverability-title">Deliverability</h2>
        {paused}
        <p class="hint">
          Not shown yet: the API gives the bounce and complaint rates with the client's settings, and this client has
          none until they are first saved (PATCH /api/v1/client/settings). Sending still pauses by itself at SES's
          limits ({percent(BOUNCE_RATE_LIMIT)} bounces, {percent(COMPLAINT_RATE_LIMIT)} complaints).
        </p>
      </section>
    );
  }
  return (
    <section class="card" aria-labelledby="deliverability-title">
      <h2 id="deliverability-title">Deliverability, last {d.window_days} days</h2>
      <p class={`status status-${d.status}`}>{STATUS_TEXT[d.status]}</p>
      {paused}
      <dl class="figures">
        <dt>Bounce rate</dt>
        <dd>
          {percent(d.bounce_rate)}{' '}
          <small>
            of {d.sends} sends; SES reviews accounts at {percent(BOUNCE_RATE_LIMIT)}
          </small>
        </dd>
        <dt>Complaint rate</dt>
        <dd>
          {percent(d.complaint_rate)} <small>SES reviews at {percent(COMPLAINT_RATE_LIMIT)}</small>
        </dd>
      </dl>
      {d.status === 'paused' ? (
        <div role="alert">
          <p>
            Sending has been paused since {d.paused_at ?? 'recently'}
            {d.paused_reason ? `: ${d.paused_reason}` : ''}. Executions wait; nothing is lost.
          </p>
          <p>
            What to do: find where the bounces or complaints come from (an imported list, a signup form without
            confirmation), unsubscribe or remove those contacts, then ask the service's operator to resume sending.
          </p>
        </div>
      ) : (
        <p class="hint">
          Sending pauses by itself at SES's limits ({percent(BOUNCE_RATE_LIMIT)} bounces,{' '}
          {percent(COMPLAINT_RATE_LIMIT)} complaints; judged from {MINIMUM_SAMPLE_SENDS} sends on), and warns at{' '}
          {Math.round(WARNING_SHARE * 100)} % of them.
        </p>
      )}
    </section>
  );
}

/** The empty state: how to report the first event, with this service's own base URL (no key is ever shown again). */
export function FirstEvent() {
  const base = `${window.location.origin}/api/v1`;
  const curl = `curl -s -X POST "${base}/client/events?sync=true" \\
  -H "Authorization: Bearer $KEY" -H 'content-type: application/json' \\
  -d '{"type":"signup","email":"ada@example.com"}'`;
  return (
    <section class="card empty" aria-labelledby="first-event-title">
      <h2 id="first-event-title">No e-mail yet: report your first event</h2>
      <p>
        Your product tells the service what its users do; the workflows send the right e-mail. Put your API key in{' '}
        <code>KEY</code> (it was shown once, when it was created) and report a sign-up:
      </p>
      {/* biome-ignore lint/a11y/noNoninteractiveTabindex lint/a11y/useAriaPropsSupportedByRole: a long block that scrolls must take focus for a keyboard to scroll it (axe scrollable-region-focusable), and its label names it. */}
      <pre tabIndex={0} aria-label="The first event, as a curl command">
        <code>{curl}</code>
      </pre>
      <p class="hint">The welcome workflow sends at once; press Refresh a few seconds later to see it here.</p>
    </section>
  );
}
