import { Duration } from 'aws-cdk-lib';
import type { HttpApi } from 'aws-cdk-lib/aws-apigatewayv2';
import {
  AlarmStatusWidget,
  Dashboard,
  GraphWidget,
  Metric,
  Stats,
  type Alarm,
  type IMetric,
  type IWidget,
} from 'aws-cdk-lib/aws-cloudwatch';
import { Construct } from 'constructs';
import { reputationMetric, type ServiceAlarms } from './alarms.js';
import type { SharedResources } from './shared-resources.js';
import type { QueueFunction } from './queue-function.js';
import type { ScheduledFunction } from './scheduled-function.js';

export interface OperationsDashboardProps {
  api: HttpApi;
  shared: SharedResources;
  consumers: readonly QueueFunction[];
  scheduled: readonly ScheduledFunction[];
  alarms: ServiceAlarms;
  /** Every alarm of the app (every stack), for the status row. */
  allAlarms: readonly Alarm[];
}

const PERIOD = Duration.minutes(5);
const WIDTH = 8;
const HEIGHT = 6;

/** An SES account-level sending metric (no dimension): every e-mail the account sent, this stack's and any other's. */
const sesCount = (metricName: string, label: string): IMetric =>
  new Metric({ namespace: 'AWS/SES', metricName, statistic: Stats.SUM, period: PERIOD, label });

const graph = (
  title: string,
  left: IMetric[],
  more: Partial<ConstructorParameters<typeof GraphWidget>[0]> = {},
): GraphWidget => new GraphWidget({ title, left, width: WIDTH, height: HEIGHT, period: PERIOD, ...more });

/**
 * The operators' CloudWatch dashboard: events in, e-mails sent, deferred, bounced, complained, queue
 * ages, errors. Only metrics that exist: SQS, Lambda, API Gateway and SES's own, and the log metrics of the function
 * tables. Each widget says below what it shows and what it does not.
 */
export class OperationsDashboard extends Construct {
  readonly dashboard: Dashboard;

  constructor(scope: Construct, id: string, props: OperationsDashboardProps) {
    super(scope, id);
    const { shared, alarms } = props;
    const queues = [...shared.queues.values()];
    const events = shared.queueOf('events').queue;
    const workflow = shared.queueOf('workflow').queue;
    const functions = [...props.consumers, ...props.scheduled].map((f) => ({
      name: f.definition.handler,
      fn: f.function,
    }));
    const deadLetters = [
      ...queues.map((q) => ({ name: q.name, queue: q.deadLetters.queue })),
      ...(shared.schedules ? [{ name: 'schedules', queue: shared.schedules.deadLetters.queue }] : []),
    ];

    const widgets: IWidget[][] = [
      // Every alarm of the stack and its state: the same ones the on-call topic hears about.
      [new AlarmStatusWidget({ title: 'Alarms', alarms: [...props.allAlarms], width: 24, height: 4 })],
      [
        // Events in: messages sent to the events queue (accepted async events, plus the outbox sweeper's
        // re-enqueues) and those process-events deleted (processed). `sync=true` events skip the queue.
        graph('Events in (events queue)', [
          events.metricNumberOfMessagesSent({ label: 'accepted (sent to the queue)', statistic: Stats.SUM }),
          events.metricNumberOfMessagesDeleted({ label: 'processed (deleted)', statistic: Stats.SUM }),
        ]),
        // E-mails sent: SES's account counts of accepted sends and deliveries, beside execute-workflow's runs (one a
        // message; a run sends at most one e-mail, fewer when it defers, skips or finds a duplicate).
        graph('E-mails sent (SES account)', [
          sesCount('Send', 'sent (SES accepted)'),
          sesCount('Delivery', 'delivered'),
          workflow.metricNumberOfMessagesDeleted({
            label: 'executions run (workflow queue, deleted)',
            statistic: Stats.SUM,
          }),
        ]),
        // Deferred: workflow messages waiting out a delivery delay — executions deferred by a quota or a send
        // window, and waits of at most 15 minutes. Longer waits sit in EventBridge Scheduler and are not counted;
        // no metric counts deferrals alone.
        graph('Deferred (workflow messages delayed)', [
          workflow.metricApproximateNumberOfMessagesDelayed({ label: 'delayed ≤ 15 min', statistic: Stats.MAXIMUM }),
        ]),
      ],
      [
        // Bounced and complained: SES's account counts per period (hard and soft bounces alike).
        graph('Bounced and complained (SES account)', [
          sesCount('Bounce', 'bounces'),
          sesCount('Complaint', 'complaints'),
        ]),
        // SES's reputation rates with this stack's alarm lines (half SES's review thresholds): left bounces, right
        // complaints, both fractions (0.025 = 2.5 %).
        graph('SES reputation (alarm at half SES review)', [reputationMetric('Reputation.BounceRate')], {
          right: [reputationMetric('Reputation.ComplaintRate')],
          leftAnnotations: [alarms.bounceRate.toAnnotation()],
          rightAnnotations: [alarms.complaintRate.toAnnotation()],
        }),
        // The function tables' log metrics: notifications for unknown message ids (ses-status) and stuck
        // executions found by the sweep, each 5-minute sum against its alarm line.
        graph(
          'Log metrics',
          [...props.consumers, ...props.scheduled].flatMap((f) =>
            f.logMetrics.map((m) => m.metric.with({ label: m.definition.metricName })),
          ),
          { leftAnnotations: [...alarms.logMetrics.values()].map((alarm) => alarm.toAnnotation()) },
        ),
      ],
      [
        // Queue ages: the oldest message of each consumed queue, against its alarm (its delays and retries).
        graph(
          'Queue ages (oldest message, seconds)',
          queues.map((q) => q.queue.metricApproximateAgeOfOldestMessage({ label: q.name, statistic: Stats.MAXIMUM })),
          { leftAnnotations: [...alarms.queueAge.values()].map((alarm) => alarm.toAnnotation()) },
        ),
        // Backlog: messages ready to be received per queue (a capped consumer shows here first).
        graph(
          'Queue backlog (visible messages)',
          queues.map((q) =>
            q.queue.metricApproximateNumberOfMessagesVisible({ label: q.name, statistic: Stats.MAXIMUM }),
          ),
        ),
        // Dead letters: each DLQ's messages (every one alarms); work that did not happen until redriven.
        graph(
          'Dead letters',
          deadLetters.map((d) =>
            d.queue.metricApproximateNumberOfMessagesVisible({ label: d.name, statistic: Stats.MAXIMUM }),
          ),
        ),
      ],
      [
        // Errors: invocation errors of every background function (crashes, timeouts; failed messages are partial
        // batch responses, seen in the DLQs) and the HTTP API's 5xx answers.
        graph('Errors', [
          ...functions.map(({ name, fn }) => fn.metricErrors({ label: name, statistic: Stats.SUM })),
          props.api.metricServerError({ label: 'HTTP API 5xx', statistic: Stats.SUM }),
        ]),
        // Invocations of every background function, and throttles (a mapping at its maxConcurrency does not throttle;
        // a throttle means the account's concurrency ran out).
        graph(
          'Invocations',
          functions.map(({ name, fn }) => fn.metricInvocations({ label: name, statistic: Stats.SUM })),
          {
            right: functions.map(({ name, fn }) =>
              fn.metricThrottles({ label: `${name} throttles`, statistic: Stats.SUM }),
            ),
          },
        ),
        // Duration of the queue consumers, p10 and p90: the p10 of execute-workflow is what the sender's sizing
        // assumes a send takes at the fastest (infra/queue-concurrency.ts, FASTEST_SEND_SECONDS).
        graph(
          'Consumer duration (ms)',
          props.consumers.flatMap((c) => [
            c.function.metricDuration({ label: `${c.definition.handler} p10`, statistic: Stats.p(10) }),
            c.function.metricDuration({ label: `${c.definition.handler} p90`, statistic: Stats.p(90) }),
          ]),
        ),
      ],
    ];
    this.dashboard = new Dashboard(this, 'Dashboard', { defaultInterval: Duration.hours(3), widgets });
  }
}
