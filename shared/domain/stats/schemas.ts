import * as z from '../../validation/zod.js';
import { plainIdParam } from '../../validation/plain-id.js';
import { STAT_COUNTERS, type StatCounter } from './stats-counters.js';

/** The longest range one read may ask for: the counters' default retention. */
export const MAX_STATS_DAYS = 400;
/** Without `from`: this many days up to `to` (today), both included. */
export const DEFAULT_STATS_DAYS = 30;

const day = (what: string) =>
  z.iso
    .date({ error: `Must be a date YYYY-MM-DD` })
    .check(
      z.maxLength(10, 'Must be a date YYYY-MM-DD'),
      z.meta({ description: `${what} (a UTC day, YYYY-MM-DD), included` }),
    );

/** GET /client/stats and GET /client/workflows/{workflow_id}/stats. */
export const StatsQuery = z.object({
  from: z.optional(
    day(
      `First day; default ${DEFAULT_STATS_DAYS - 1} days before \`to\`. At most ${MAX_STATS_DAYS} days before \`to\` ` +
        '(422 `max` on `from` beyond: a rule between two fields, which JSON Schema cannot state)',
    ),
  ),
  to: z.optional(day('Last day; default today. Not before `from` (422 `min` on `to`: a rule between two fields)')),
  granularity: z._default(
    z.optional(
      z
        .enum(['day', 'week', 'month'], { error: 'Must be day, week or month' })
        .check(z.meta({ description: 'One point per UTC day, ISO week (from Monday) or calendar month' })),
    ),
    'day',
  ),
});
export type StatsQuery = z.output<typeof StatsQuery>;

/** GET /client/stats also takes `workflow_id`: that workflow's counters only. */
export const ClientStatsQuery = z.extend(StatsQuery, {
  workflow_id: z.optional(
    z
      .pipe(
        z.string().check(z.maxLength(9, 'Must be a workflow id'), z.regex(/^[1-9]\d{0,8}$/, 'Must be a workflow id')),
        z.transform(Number),
      )
      .check(z.meta({ pattern: '^[1-9]\\d{0,8}$', description: "Only this workflow's counters" })),
  ),
});
export type ClientStatsQuery = z.output<typeof ClientStatsQuery>;

export const WorkflowStatsParams = z.object({ workflow_id: plainIdParam(9, 'The workflow id') });

const count = z.int().check(z.gte(0));
const signedCount = z.int();

const counterDescriptions: Record<StatCounter, string> = {
  executions: 'Executions created (events that triggered the workflow; retries not counted again)',
  sent: 'E-mails sent (claimed for SES; given back if the send never happened)',
  delivered: 'Deliveries SES reported',
  opened: 'E-mails opened by a human, once per e-mail',
  clicked: 'E-mails clicked by a human, once per e-mail',
  bot_opened: 'Opens by machines (scanners, Apple Mail Privacy Protection), every one',
  bot_clicked: 'Clicks by machines (link scanners), every one',
  bounced_hard: 'Permanent bounces',
  bounced_soft: 'Transient bounces',
  complained: 'Complaints',
  unsubscribed_link: "Unsubscribes through the e-mail's one-click link",
  unsubscribed_ses: 'Unsubscribes SES reported',
  unsubscribed_suppression: 'Contacts unsubscribed after a hard bounce, a complaint or repeated soft bounces',
  failed: 'Executions that failed',
  skipped: 'Executions skipped',
  deferred: 'Sends put off (quota, cap, window, paused sending, SES throttling)',
  exited:
    "Executions cancelled `goal_reached`: an exit event of the workflow came before they were claimed (on the exit's day)",
  converted:
    "Exit events within the workflow's conversion_window_days after its last e-mail to the contact was sent, once per e-mail (on the exit's day)",
};

/** Every counter of a period. Counts can dip below 0 in a day whose claim was given back after its day ended. */
export const StatCountsView = z
  .object(
    Object.fromEntries(
      STAT_COUNTERS.map((name) => [name, signedCount.check(z.meta({ description: counterDescriptions[name] }))]),
    ) as Record<StatCounter, typeof signedCount>,
  )
  .check(z.meta({ id: 'StatCounts', description: 'The counters of a period.' }));

const rate = z
  .nullable(z.number().check(z.gte(0)))
  .check(z.meta({ description: 'A fraction (0.25 = 25 %); null without a denominator' }));

export const StatRatesView = z
  .object({
    delivery_rate: rate.check(z.meta({ description: 'delivered / sent' })),
    open_rate: rate.check(z.meta({ description: 'human opened / delivered (bots left out)' })),
    click_rate: rate.check(z.meta({ description: 'human clicked / delivered' })),
    click_to_open_rate: rate.check(z.meta({ description: 'human clicked / human opened' })),
    bounce_rate: rate.check(z.meta({ description: '(bounced_hard + bounced_soft) / sent' })),
    complaint_rate: rate.check(z.meta({ description: 'complained / delivered' })),
    unsubscribe_rate: rate.check(z.meta({ description: 'every unsubscribe / delivered' })),
    bot_open_share: rate.check(
      z.meta({ description: 'bot_opened / (bot_opened + opened): how much of the raw opens were machines' }),
    ),
    conversion_rate: rate.check(z.meta({ description: 'converted / sent (goals)' })),
  })
  .check(z.meta({ id: 'StatRates', description: 'Rates of a range, from its totals.' }));

const reasons = z.record(z.string(), count).check(z.meta({ description: 'Count by reason' }));

const StatsFields = z.object({
  from: z.iso.date(),
  to: z.iso.date(),
  granularity: z.enum(['day', 'week', 'month']),
  workflow_id: z.nullable(z.int()),
  time_zone: z.literal('UTC').check(
    z.meta({
      description:
        'Days are UTC days (docs/decisions/0082-analytics-day-counters.md: why, and how far a local day differs)',
    }),
  ),
  series: z.array(
    z.object({
      period: z.string().check(
        z.meta({
          description: 'The UTC day, the Monday of the ISO week, or YYYY-MM',
          examples: ['2026-11-23', '2026-11'],
        }),
      ),
      counts: StatCountsView,
      events: z
        .record(z.string(), count)
        .check(z.meta({ description: 'Events received in the period, by type (all workflows only)' })),
    }),
  ),
  totals: StatCountsView,
  rates: StatRatesView,
  skipped_reasons: reasons,
  failed_reasons: reasons,
  events: z
    .record(z.string(), count)
    .check(z.meta({ description: 'Events received in the range, by type (all workflows only)' })),
});

export const StatsView = StatsFields.check(
  z.meta({ id: 'Stats', description: "A client's sending figures over a range of UTC days." }),
);
export type StatsView = z.output<typeof StatsView>;

export const WorkflowStatsView = z
  .extend(StatsFields, {
    funnel: z
      .array(z.object({ step: z.enum(['triggered', 'sent', 'delivered', 'opened', 'clicked']), count: signedCount }))
      .check(
        z.meta({
          description:
            'Events that triggered the workflow (its executions) → sent → delivered → opened → clicked (humans)',
        }),
      ),
  })
  .check(
    z.meta({ id: 'WorkflowStats', description: "One workflow's figures over a range of UTC days, with its funnel." }),
  );
export type WorkflowStatsView = z.output<typeof WorkflowStatsView>;
