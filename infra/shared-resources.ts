import { RemovalPolicy } from 'aws-cdk-lib';
import type { Function as LambdaFunction } from 'aws-cdk-lib/aws-lambda';
import { Construct } from 'constructs';
import { VISIBILITY_TIMEOUT_FACTOR, type QueueFunctionDefinition } from '../functions/queues.js';
import { MAX_QUEUE_DELAY_SECONDS, type QueueName } from '../shared/platform.js';
import { ExecutionSchedules } from './execution-schedules.js';
import { LinkSecret } from './link-secret.js';
import { MailEvents } from './mail-events.js';
import { MailSending } from './mail-sending.js';
import type { MailSenders } from './stack-settings.js';
import { constructIdOf } from './node-function.js';
import { resolveQueueFunction } from './queue-function.js';
import { queueUrlVariable, WorkQueue } from './work-queue.js';

/**
 * What an entry of a function table (routes, queue, scheduled and stream functions) says it does with the shared
 * resources; `connect` grants exactly that.
 */
export interface ResourceNeeds {
  sendsTo?: readonly QueueName[];
  schedules?: boolean;
  /** Clients' e-mail (From their verified domains or the onboarding sender, never the service's own sender). */
  sendsEmail?: boolean;
  /** The service's own e-mails only (no links), From SYSTEM_FROM_EMAIL through its own configuration set. */
  sendsSystemMail?: boolean;
  /** Creates and checks clients' SES domain identities and tenants (the domain routes and poller). */
  managesSenders?: boolean;
  usesLinkSecret?: boolean;
}

export interface SharedResourcesProps {
  /** functions/queues.ts: one queue per entry, sized after its consumer. */
  queueFunctions: readonly QueueFunctionDefinition[];
  deletionProtection: boolean;
  /** UNSUBSCRIBE_MAILTO: given to the functions that send clients' e-mail only. */
  senderEnvironment: Record<string, string>;
  /** The service's own senders and the tenants' reputation policy (context); the SES grants are written from them. */
  mailSenders?: MailSenders;
}

/**
 * Schedules deliver to these queues only: waits over 15 minutes are executions waiting to run, journey runs waiting
 * (a wait, a wait_for_event's timeout, a send's safety net), or webhook retries (30 min to 10 h apart). All take
 * waits up to SQS's 15 minutes as `DelaySeconds`.
 */
const SCHEDULE_TARGETS: readonly QueueName[] = ['workflow', 'journey', 'webhooks', 'webhooks-failing', 'broadcast'];
const SCHEDULE_TARGET: QueueName = 'workflow';

/**
 * What the functions of every stack share and what holds data or secrets, so it lives in the root stack: the queues of
 * functions/queues.ts (each with its DLQ), the Scheduler group and role, the SES configuration sets with their status
 * events (SNS → the `sesEvents` entry's queue) and the link secret. The functions that use them, in the nested
 * stacks, get them through `connect`.
 */
export class SharedResources extends Construct {
  readonly queues: ReadonlyMap<QueueName, WorkQueue>;
  readonly schedules: ExecutionSchedules | undefined;
  readonly mail: MailSending;
  /** SES status events → SNS → the queue of the entry with `sesEvents`; absent when no entry has it. */
  readonly mailEvents: MailEvents | undefined;
  readonly linkSecret: LinkSecret;

  constructor(scope: Construct, id: string, props: SharedResourcesProps) {
    super(scope, id);
    const removalPolicy = props.deletionProtection ? RemovalPolicy.RETAIN : RemovalPolicy.DESTROY;

    const queues = new Map<QueueName, WorkQueue>();
    for (const entry of props.queueFunctions) {
      if (queues.has(entry.queue)) throw new Error(`queue "${entry.queue}" has two functions in functions/queues.ts`);
      const definition = resolveQueueFunction(entry);
      queues.set(
        entry.queue,
        new WorkQueue(this, `${constructIdOf(entry.queue)}Queue`, {
          name: entry.queue,
          // SQS must not hand a message to a second worker while the first may still be running it.
          visibilityTimeoutSeconds: definition.timeoutSeconds * VISIBILITY_TIMEOUT_FACTOR,
          maxReceiveCount: definition.maxReceiveCount,
          removalPolicy,
        }),
      );
    }
    this.queues = queues;

    const scheduleTargets = SCHEDULE_TARGETS.flatMap((name) => queues.get(name) ?? []);
    this.schedules = queues.has(SCHEDULE_TARGET)
      ? new ExecutionSchedules(this, 'Schedules', { targets: scheduleTargets, removalPolicy })
      : undefined;
    this.mail = new MailSending(this, 'Mail', {
      senderEnvironment: props.senderEnvironment,
      ...(props.mailSenders ? { mailSenders: props.mailSenders } : {}),
    });
    const statusQueues = props.queueFunctions.filter((entry) => entry.sesEvents);
    if (statusQueues.length > 1) {
      throw new Error(
        `SES status events go to one queue; functions/queues.ts marks ${statusQueues.length} with sesEvents`,
      );
    }
    this.mailEvents = statusQueues[0]
      ? new MailEvents(this, 'MailEvents', {
          mail: this.mail,
          target: this.queueOf(statusQueues[0].queue),
          removalPolicy,
        })
      : undefined;
    this.linkSecret = new LinkSecret(this, 'LinkSecret', { removalPolicy });
  }

  /**
   * The longest delivery delay a message of the queue may carry: the schedules' targets (the workflow, journey and
   * webhook queues) take waits up to SQS's 15 minutes as `DelaySeconds` (shared/domain/engine/dispatch.ts,
   * shared/domain/webhooks/deliver-webhook.ts); the other queues none.
   */
  maxDelaySecondsOf(name: QueueName): number {
    return SCHEDULE_TARGETS.includes(name) ? MAX_QUEUE_DELAY_SECONDS : 0;
  }

  /** The queue a function consumes (functions/queues.ts). */
  queueOf(name: QueueName): WorkQueue {
    const queue = this.queues.get(name);
    if (!queue) throw new Error(`no queue "${name}" in functions/queues.ts`);
    return queue;
  }

  /**
   * Grants `fn` what its table entry says and nothing more, with the environment its providers read: send to each
   * queue of `sendsTo` (`<NAME>_QUEUE_URL`), create schedules, send clients' e-mail or the service's own (each its
   * own grant: infra/mail-sending.ts), manage clients' domains and tenants, sign or verify links (read the link
   * secret: LINK_SECRET_ARN; the senders build links too). `who` names the entry in errors.
   */
  connect(fn: LambdaFunction, who: string, needs: ResourceNeeds): void {
    for (const name of needs.sendsTo ?? []) {
      const target = this.queues.get(name);
      if (!target) throw new Error(`${who} sends to "${name}", which no queue function consumes`);
      target.grantSend(fn);
      fn.addEnvironment(queueUrlVariable(name), target.queue.queueUrl);
    }
    if (needs.schedules) {
      if (!this.schedules)
        throw new Error(`${who} schedules, but no queue function consumes the ${SCHEDULE_TARGET} queue`);
      this.schedules.grantCreate(fn);
    }
    if (needs.sendsEmail && needs.sendsSystemMail) {
      throw new Error(
        `${who} both sends clients' e-mail and the service's own: give each its own function (the clients' grant ` +
          `denies the service's sender, so one role cannot hold both)`,
      );
    }
    if (needs.sendsEmail) this.mail.grantClientSend(fn, who);
    if (needs.sendsSystemMail) this.mail.grantSystemSend(fn, who);
    if (needs.managesSenders) this.mail.grantManageSenders(fn, who);
    if (needs.sendsEmail || needs.usesLinkSecret) this.linkSecret.grantTo(fn);
  }
}
