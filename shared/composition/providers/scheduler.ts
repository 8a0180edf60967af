import { SchedulerClient } from '@aws-sdk/client-scheduler';
import { EventBridgeScheduler } from '../../adapters/scheduler/eventbridge-scheduler.js';
import { provide } from '../container.js';

/** EventBridge Scheduler one-time schedules targeting the workflow, journey and webhook delivery queues. */
export const scheduler = provide('scheduler', (c) => {
  const {
    AWS_REGION,
    SCHEDULER_GROUP_NAME,
    SCHEDULER_ROLE_ARN,
    SCHEDULER_DLQ_ARN,
    WORKFLOW_QUEUE_ARN,
    JOURNEY_QUEUE_ARN,
    WEBHOOKS_QUEUE_ARN,
    WEBHOOKS_FAILING_QUEUE_ARN,
    BROADCAST_QUEUE_ARN,
  } = c.config;
  if (
    !SCHEDULER_GROUP_NAME ||
    !SCHEDULER_ROLE_ARN ||
    !(
      WORKFLOW_QUEUE_ARN ||
      JOURNEY_QUEUE_ARN ||
      WEBHOOKS_QUEUE_ARN ||
      WEBHOOKS_FAILING_QUEUE_ARN ||
      BROADCAST_QUEUE_ARN
    )
  ) {
    throw new Error(
      'SCHEDULER_GROUP_NAME, SCHEDULER_ROLE_ARN and a target queue ARN (WORKFLOW_QUEUE_ARN, WEBHOOKS_QUEUE_ARN) must be set to schedule',
    );
  }
  return new EventBridgeScheduler(new SchedulerClient({ region: AWS_REGION }), {
    groupName: SCHEDULER_GROUP_NAME,
    roleArn: SCHEDULER_ROLE_ARN,
    queueArns: {
      ...(WORKFLOW_QUEUE_ARN ? { workflow: WORKFLOW_QUEUE_ARN } : {}),
      ...(JOURNEY_QUEUE_ARN ? { journey: JOURNEY_QUEUE_ARN } : {}),
      ...(WEBHOOKS_QUEUE_ARN ? { webhooks: WEBHOOKS_QUEUE_ARN } : {}),
      ...(WEBHOOKS_FAILING_QUEUE_ARN ? { 'webhooks-failing': WEBHOOKS_FAILING_QUEUE_ARN } : {}),
      ...(BROADCAST_QUEUE_ARN ? { broadcast: BROADCAST_QUEUE_ARN } : {}),
    },
    ...(SCHEDULER_DLQ_ARN ? { deadLetterArn: SCHEDULER_DLQ_ARN } : {}),
  });
});
