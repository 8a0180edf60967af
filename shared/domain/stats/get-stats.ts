import { DateTime } from 'luxon';
import type { Clock } from '../../platform.js';
import { notFound } from '../../errors.js';
import { findWorkflow } from '../workflows/catalog.js';
import {
  addCounts,
  addReasons,
  zeroCounts,
  type StatCounts,
  type WorkflowDayRow,
  type EventTypeDayRow,
} from './stats-counters.js';
import type { StatsStore } from './stats-store.js';
import { rangeOf } from './stats-range.js';
import type { ClientStatsQuery, StatsView, WorkflowStatsView } from './schemas.js';

export { rangeOf };

export interface StatsDeps {
  stats: StatsStore;
  clock: Clock;
}

type Granularity = StatsView['granularity'];

/** Whose figures: the authenticated client. */
export interface StatsReader {
  clientId: number;
}

/**
 * A client's figures over a range of UTC days (GET /client/stats): one Query of its day rows, summed by period; the
 * rates come from the range's totals. `workflow_id` keeps one workflow's rows. The rows are a projection of the
 * change stream, so a fact shows a few seconds after it happened (docs/api-guide.md#statistics).
 */
export async function getStats(deps: StatsDeps, reader: StatsReader, query: ClientStatsQuery): Promise<StatsView> {
  if (query.workflow_id !== undefined && !findWorkflow(query.workflow_id))
    throw notFound('workflow_id', 'Workflow not found');
  const { from, to } = rangeOf(query, deps.clock.now());
  const rows = await deps.stats.read(reader.clientId, from, to, query.workflow_id);
  return summarise(
    rows.workflows,
    query.workflow_id === undefined ? rows.events : [],
    from,
    to,
    query.granularity,
    query.workflow_id ?? null,
  );
}

/** One workflow's figures (GET /client/workflows/{workflow_id}/stats), with its funnel. Unknown workflow: 404. */
export async function getWorkflowStats(
  deps: StatsDeps,
  reader: StatsReader,
  workflowId: number,
  query: Omit<ClientStatsQuery, 'workflow_id'>,
): Promise<WorkflowStatsView> {
  if (!findWorkflow(workflowId)) throw notFound('workflow_id', 'Workflow not found');
  const stats = await getStats(deps, reader, { ...query, workflow_id: workflowId });
  const t = stats.totals;
  return {
    ...stats,
    funnel: [
      { step: 'triggered', count: t.executions },
      { step: 'sent', count: t.sent },
      { step: 'delivered', count: t.delivered },
      { step: 'opened', count: t.opened },
      { step: 'clicked', count: t.clicked },
    ],
  };
}

/** The period a UTC day belongs to: itself, the Monday of its ISO week, or its month. */
export function periodOf(day: string, granularity: Granularity): string {
  if (granularity === 'day') return day;
  if (granularity === 'month') return day.slice(0, 7);
  return DateTime.fromISO(day, { zone: 'utc' }).startOf('week').toISODate()!;
}

function summarise(
  rows: WorkflowDayRow[],
  eventRows: EventTypeDayRow[],
  from: string,
  to: string,
  granularity: Granularity,
  workflowId: number | null,
): StatsView {
  // Every period of the range, empty ones included, so a chart has no gaps.
  const periods = new Map<string, { counts: StatCounts; events: Record<string, number> }>();
  for (let d = DateTime.fromISO(from, { zone: 'utc' }); d.toISODate()! <= to; d = d.plus({ days: 1 })) {
    const period = periodOf(d.toISODate()!, granularity);
    if (!periods.has(period)) periods.set(period, { counts: zeroCounts(), events: {} });
  }
  const totals = zeroCounts();
  const skipped: Record<string, number> = {};
  const failed: Record<string, number> = {};
  const events: Record<string, number> = {};
  for (const row of rows) {
    addCounts(periods.get(periodOf(row.day, granularity))!.counts, row.counts);
    addCounts(totals, row.counts);
    addReasons(skipped, row.skippedReasons);
    addReasons(failed, row.failedReasons);
  }
  for (const row of eventRows) {
    addReasons(periods.get(periodOf(row.day, granularity))!.events, { [row.type]: row.received });
    addReasons(events, { [row.type]: row.received });
  }
  return {
    from,
    to,
    granularity,
    workflow_id: workflowId,
    time_zone: 'UTC',
    series: [...periods].map(([period, p]) => ({ period, counts: p.counts, events: p.events })),
    totals,
    rates: ratesOf(totals),
    skipped_reasons: skipped,
    failed_reasons: failed,
    events,
  };
}

const ratio = (part: number, whole: number): number | null =>
  whole > 0 ? Math.max(0, Math.round((part / whole) * 10_000) / 10_000) : null;

/** The rates of a range: engagement over delivered e-mails, humans only; bounces over sent. */
export function ratesOf(t: StatCounts): StatsView['rates'] {
  return {
    delivery_rate: ratio(t.delivered, t.sent),
    open_rate: ratio(t.opened, t.delivered),
    click_rate: ratio(t.clicked, t.delivered),
    click_to_open_rate: ratio(t.clicked, t.opened),
    bounce_rate: ratio(t.bounced_hard + t.bounced_soft, t.sent),
    complaint_rate: ratio(t.complained, t.delivered),
    unsubscribe_rate: ratio(t.unsubscribed_link + t.unsubscribed_ses + t.unsubscribed_suppression, t.delivered),
    bot_open_share: ratio(t.bot_opened, t.bot_opened + t.opened),
    conversion_rate: ratio(t.converted, t.sent),
  };
}
