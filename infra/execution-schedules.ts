import { Stack, Validations, type RemovalPolicy } from 'aws-cdk-lib';
import { PolicyStatement, Role, ServicePrincipal } from 'aws-cdk-lib/aws-iam';
import type { Function as LambdaFunction } from 'aws-cdk-lib/aws-lambda';
import { ScheduleGroup } from 'aws-cdk-lib/aws-scheduler';
import { Construct } from 'constructs';
import { DeadLetterQueue } from './dead-letter-queue.js';
import { wildcardResourceFinding } from './nag.js';
import { queueArnVariable, type WorkQueue } from './work-queue.js';

export interface ExecutionSchedulesProps {
  /** The queues schedules send their messages to (the workflow and journey queues, the webhook delivery queues). */
  targets: readonly WorkQueue[];
  removalPolicy: RemovalPolicy;
}

/**
 * Waits longer than SQS's 15 minutes (DESIGN.md §8): the functions create one-time schedules (at(), deleted once run)
 * in this group; Scheduler assumes the role to send the message to the target queue, or to the schedules' DLQ when
 * its own retries are exhausted.
 */
export class ExecutionSchedules extends Construct {
  readonly group: ScheduleGroup;
  readonly role: Role;
  readonly deadLetters: DeadLetterQueue;
  private readonly targets: readonly WorkQueue[];

  constructor(scope: Construct, id: string, props: ExecutionSchedulesProps) {
    super(scope, id);
    this.targets = props.targets;
    // Deleting a group deletes its schedules, i.e. executions still waiting: retained like the table.
    this.group = new ScheduleGroup(this, 'Group', { removalPolicy: props.removalPolicy });
    this.deadLetters = new DeadLetterQueue(this, 'DeadLetters', {
      alarmDescription:
        'EventBridge Scheduler could not deliver a scheduled message (an execution, a run, a webhook retry) to its queue (DLQ)',
      removalPolicy: props.removalPolicy,
    });
    Validations.of(this.deadLetters.queue).acknowledge({
      id: 'AwsSolutions-SQS3',
      reason:
        'This queue is itself a dead-letter queue: EventBridge Scheduler puts schedules it could not deliver here ' +
        '(Target.DeadLetterConfig, SCHEDULER_DLQ_ARN); no redrive policy names it, so cdk-nag cannot tell.',
    });

    const stack = Stack.of(this);
    // Only Scheduler, on behalf of this account's schedules in this group (confused-deputy protection). The
    // schedule-group ARN is what Scheduler documents as aws:SourceArn; the group's schedule ARNs are accepted too.
    this.role = new Role(this, 'Role', {
      description:
        'EventBridge Scheduler: deliver scheduled executions, journey runs and webhook retries to their queues',
      assumedBy: new ServicePrincipal('scheduler.amazonaws.com', {
        conditions: {
          StringEquals: { 'aws:SourceAccount': stack.account },
          ArnLike: { 'aws:SourceArn': [this.group.scheduleGroupArn, this.scheduleArns()] },
        },
      }),
    });
    this.role.addToPolicy(
      new PolicyStatement({
        actions: ['sqs:SendMessage'],
        resources: [...props.targets.map((t) => t.queue.queueArn), this.deadLetters.queue.queueArn],
      }),
    );
  }

  /**
   * Lets a function create schedules in this group (they delete themselves after running, and a name conflict is
   * the adapter's idempotency) and delete one before it runs (a goal cancelled its execution), pass the
   * role to Scheduler and nothing else, and gives it the names the scheduler provider reads.
   */
  grantCreate(fn: LambdaFunction): void {
    fn.addToRolePolicy(
      new PolicyStatement({
        actions: ['scheduler:CreateSchedule', 'scheduler:DeleteSchedule'],
        resources: [this.scheduleArns()],
      }),
    );
    fn.addToRolePolicy(
      new PolicyStatement({
        actions: ['iam:PassRole'],
        resources: [this.role.roleArn],
        conditions: { StringEquals: { 'iam:PassedToService': 'scheduler.amazonaws.com' } },
      }),
    );
    Validations.of(fn.role!).acknowledge({
      id: wildcardResourceFinding(fn, this.scheduleArns()),
      reason:
        'Every execution waiting longer than 15 minutes gets its own one-time schedule named after it, so the ' +
        'names are not known at deploy time; the wildcard spans the schedules of this one group.',
    });
    fn.addEnvironment('SCHEDULER_GROUP_NAME', this.group.scheduleGroupName);
    fn.addEnvironment('SCHEDULER_ROLE_ARN', this.role.roleArn);
    fn.addEnvironment('SCHEDULER_DLQ_ARN', this.deadLetters.queue.queueArn);
    for (const target of this.targets) fn.addEnvironment(queueArnVariable(target.name), target.queue.queueArn);
  }

  /** `arn:…:scheduler:<region>:<account>:schedule/<group>/*`: every schedule of this group. */
  private scheduleArns(): string {
    return Stack.of(this).formatArn({
      service: 'scheduler',
      resource: 'schedule',
      resourceName: `${this.group.scheduleGroupName}/*`,
    });
  }
}
