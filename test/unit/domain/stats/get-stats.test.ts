import { describe, expect, it } from 'vitest';
import { FixedClock } from '../../../../shared/adapters/memory/client-stores.js';
import { MemoryStatsStore } from '../../../../shared/adapters/memory/stats-store.js';
import { getStats, getWorkflowStats, periodOf, ratesOf } from '../../../../shared/domain/stats/get-stats.js';
import { zeroCounts } from '../../../../shared/domain/stats/stats-counters.js';
import { AppError } from '../../../../shared/errors.js';

const CLIENT = 7;
const READER = { clientId: CLIENT };

function setup() {
  const stats = new MemoryStatsStore();
  const clock = new FixedClock(new Date('2026-11-26T12:00:00.000Z'));
  const add = (
    day: string,
    workflowId: number,
    counts: Parameters<MemoryStatsStore['add']>[0]['counts'],
    reasons: { skippedReason?: string; failedReason?: string } = {},
  ) =>
    stats.add({
      clientId: CLIENT,
      row: { workflowId },
      day,
      counts,
      ...(reasons.skippedReason ? { skippedReasons: { [reasons.skippedReason]: counts?.skipped ?? 1 } } : {}),
      ...(reasons.failedReason ? { failedReasons: { [reasons.failedReason]: counts?.failed ?? 1 } } : {}),
    });
  return { deps: { stats, clock }, stats, add };
}

describe('getStats', () => {
  it('gives the last 30 UTC days by default, every day present, summing workflows, with totals and rates', async () => {
    // Prepare
    const { deps, add, stats } = setup();
    add('2026-11-26', 1, { sent: 4, delivered: 4, opened: 2, clicked: 1, bot_opened: 6 });
    add('2026-11-26', 2, { sent: 1, delivered: 0, bounced_hard: 1, unsubscribed_suppression: 1 });
    add('2026-11-20', 1, { skipped: 2 }, { skippedReason: 'contact_unsubscribed' });
    add('2026-10-27', 1, { sent: 100 }); // the day before the default range
    stats.add({ clientId: 8, row: { workflowId: 1 }, day: '2026-11-26', counts: { sent: 50 } }); // another client
    stats.add({ clientId: CLIENT, day: '2026-11-26', row: { eventType: 'signup' }, received: 1 });

    // Act
    const view = await getStats(deps, READER, { granularity: 'day' });

    // Assess
    expect(view).toMatchObject({
      from: '2026-10-28',
      to: '2026-11-26',
      granularity: 'day',
      workflow_id: null,
      time_zone: 'UTC',
    });
    expect(view.series).toHaveLength(30);
    expect(view.series.at(-1)).toEqual({
      period: '2026-11-26',
      counts: {
        ...zeroCounts(),
        sent: 5,
        delivered: 4,
        opened: 2,
        clicked: 1,
        bot_opened: 6,
        bounced_hard: 1,
        unsubscribed_suppression: 1,
      },
      events: { signup: 1 },
    });
    expect(view.totals).toMatchObject({ sent: 5, skipped: 2 });
    expect(view.skipped_reasons).toEqual({ contact_unsubscribed: 2 });
    expect(view.events).toEqual({ signup: 1 });
    expect(view.rates).toEqual({
      delivery_rate: 0.8,
      open_rate: 0.5,
      click_rate: 0.25,
      click_to_open_rate: 0.5,
      bounce_rate: 0.2,
      complaint_rate: 0,
      unsubscribe_rate: 0.25,
      bot_open_share: 0.75,
      conversion_rate: 0,
    });
  });

  it('groups by ISO week (from Monday) and by month, empty periods included', async () => {
    const { deps, add } = setup();
    add('2026-11-01', 1, { sent: 1 }); // a Sunday: week of Monday 2026-10-26
    add('2026-11-02', 1, { sent: 2 });

    const weeks = await getStats(deps, READER, { from: '2026-10-26', to: '2026-11-15', granularity: 'week' });
    const months = await getStats(deps, READER, { from: '2026-10-26', to: '2026-11-15', granularity: 'month' });

    expect(weeks.series.map((p) => [p.period, p.counts.sent])).toEqual([
      ['2026-10-26', 1],
      ['2026-11-02', 2],
      ['2026-11-09', 0],
    ]);
    expect(months.series.map((p) => [p.period, p.counts.sent])).toEqual([
      ['2026-10', 0],
      ['2026-11', 3],
    ]);
  });

  it('narrows to one workflow, without the events received', async () => {
    const { deps, add, stats } = setup();
    add('2026-11-26', 1, { sent: 4 });
    add('2026-11-26', 2, { sent: 1 });
    stats.add({ clientId: CLIENT, day: '2026-11-26', row: { eventType: 'signup' }, received: 1 });

    const view = await getStats(deps, READER, { granularity: 'day', workflow_id: 2, from: '2026-11-26' });

    expect(view.totals.sent).toBe(1);
    expect(view.events).toEqual({});
    expect(view.workflow_id).toBe(2);
  });

  it.each([
    [{ from: '2026-11-27', to: '2026-11-26' }, 'to', 'min'],
    [{ from: '2025-10-21', to: '2026-11-26' }, 'from', 'max'],
  ])('refuses the range %o with 422 on %s', async (range, key, condition) => {
    const { deps } = setup();
    const error = await getStats(deps, READER, { granularity: 'day', ...range }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AppError);
    expect((error as AppError).status).toBe(422);
    expect((error as AppError).items).toEqual([{ condition, key, error: expect.any(String) }]);
  });

  it('takes exactly 400 days', async () => {
    const { deps } = setup();
    const view = await getStats(deps, READER, { from: '2025-10-23', to: '2026-11-26', granularity: 'month' });
    expect(view.from).toBe('2025-10-23');
  });

  it('answers 404 for a workflow the catalog does not have', async () => {
    const { deps } = setup();
    await expect(getStats(deps, READER, { granularity: 'day', workflow_id: 999 })).rejects.toMatchObject({
      status: 404,
    });
    await expect(getWorkflowStats(deps, READER, 999, { granularity: 'day' })).rejects.toMatchObject({ status: 404 });
  });
});

describe('getWorkflowStats', () => {
  it('gives the funnel from executions to human clicks, and the failure reasons', async () => {
    const { deps, add } = setup();
    add('2026-11-25', 1, { executions: 10, sent: 8, delivered: 7, opened: 3, clicked: 1, bot_opened: 9 });
    add('2026-11-25', 1, { failed: 1 }, { failedReason: 'send_rejected' });

    const view = await getWorkflowStats(deps, READER, 1, { granularity: 'day', from: '2026-11-20' });

    expect(view.funnel).toEqual([
      { step: 'triggered', count: 10 },
      { step: 'sent', count: 8 },
      { step: 'delivered', count: 7 },
      { step: 'opened', count: 3 },
      { step: 'clicked', count: 1 },
    ]);
    expect(view.failed_reasons).toEqual({ send_rejected: 1 });
  });
});

describe('the read', () => {
  it('is one read of the client’s rows, whatever its size', async () => {
    const { deps, stats } = setup();
    stats.add({ clientId: CLIENT, row: { workflowId: 1 }, day: '2026-11-26', counts: { sent: 3 } });

    const view = await getStats(deps, READER, { granularity: 'day', from: '2026-11-26' });

    expect(view.totals.sent).toBe(3);
    expect(stats.reads).toEqual([{ clientId: CLIENT }]);
  });
});

describe('periodOf and ratesOf', () => {
  it('puts a day in its ISO week and month', () => {
    expect(periodOf('2026-11-29', 'week')).toBe('2026-11-23');
    expect(periodOf('2026-11-29', 'month')).toBe('2026-11');
  });

  it('gives null rates without a denominator', () => {
    expect(Object.values(ratesOf(zeroCounts())).every((rate) => rate === null)).toBe(true);
  });
});
