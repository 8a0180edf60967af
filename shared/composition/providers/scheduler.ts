import { SchedulerClient } from '@aws-sdk/client-scheduler';
import { EventBridgeScheduler } from '../../adapters/scheduler/eventbridge-scheduler.js';
import { provide } from '../container.js';

/** EventBridge Scheduler one-time schedules targeting the workflow queue. */
export const scheduler = provide('scheduler', (c) => {
  const { AWS_REGION, SCHEDULER_GROUP_NAME, SCHEDULER_ROLE_ARN, SCHEDULER_DLQ_ARN, WORKFLOW_QUEUE_ARN } = c.config;
  if (!SCHEDULER_GROUP_NAME || !SCHEDULER_ROLE_ARN || !WORKFLOW_QUEUE_ARN) {
    throw new Error('SCHEDULER_GROUP_NAME, SCHEDULER_ROLE_ARN and WORKFLOW_QUEUE_ARN must be set to schedule executions');
  }
  return new EventBridgeScheduler(new SchedulerClient({ region: AWS_REGION }), {
    groupName: SCHEDULER_GROUP_NAME,
    roleArn: SCHEDULER_ROLE_ARN,
    queueArns: { workflow: WORKFLOW_QUEUE_ARN },
    ...(SCHEDULER_DLQ_ARN ? { deadLetterArn: SCHEDULER_DLQ_ARN } : {}),
  });
});
