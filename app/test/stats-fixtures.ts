/** A day's (or a period's) counters as GET /client/stats and …/workflows/{id}/stats answer them: 0 but `values`. */
export const counts = (values: Partial<Record<string, number>> = {}) => ({
  executions: 0,
  sent: 0,
  delivered: 0,
  opened: 0,
  clicked: 0,
  bot_opened: 0,
  bot_clicked: 0,
  bounced_hard: 0,
  bounced_soft: 0,
  complained: 0,
  unsubscribed_link: 0,
  unsubscribed_ses: 0,
  unsubscribed_suppression: 0,
  failed: 0,
  skipped: 0,
  deferred: 0,
  exited: 0,
  converted: 0,
  ...values,
});

/** GET /client/stats over these days (totals summed from them), with these event counts. */
export function accountStatsOf(
  days: { period: string; counts: ReturnType<typeof counts> }[],
  events: Record<string, number>,
) {
  const totals = counts();
  for (const day of days)
    for (const [name, value] of Object.entries(day.counts)) totals[name as keyof typeof totals] += value;
  return {
    from: days[0]?.period ?? '2026-11-20',
    to: days.at(-1)?.period ?? '2026-11-26',
    granularity: 'day',
    workflow_id: null,
    time_zone: 'UTC',
    series: days.map((day) => ({ ...day, events: {} })),
    totals,
    rates: {
      delivery_rate: 0.75,
      open_rate: 0.5,
      click_rate: 0.25,
      click_to_open_rate: 0.5,
      bounce_rate: 0.25,
      complaint_rate: 0,
      unsubscribe_rate: 0,
      bot_open_share: 0.4,
      conversion_rate: null,
    },
    skipped_reasons: {},
    failed_reasons: {},
    events,
  };
}

/** The settings' deliverability of a client that has sent nothing in the window. */
export const QUIET_DELIVERABILITY = {
  window_days: 30,
  sends: 0,
  bounces: 0,
  complaints: 0,
  bounce_rate: 0,
  complaint_rate: 0,
  status: 'healthy',
  paused_at: null,
  paused_reason: null,
};
