import { SQSClient } from '@aws-sdk/client-sqs';
import { SqsQueue } from '../../adapters/sqs/sqs-queue.js';
import { provide } from '../container.js';

/** SQS, with the queue URLs this function was given (the stack sets only the queues a function sends to). */
export const queue = provide('queue', (c) => {
  const {
    AWS_REGION,
    EVENTS_QUEUE_URL,
    WORKFLOW_QUEUE_URL,
    JOURNEY_QUEUE_URL,
    WEBHOOKS_QUEUE_URL,
    WEBHOOKS_FAILING_QUEUE_URL,
    SYSTEM_MAIL_QUEUE_URL,
    BROADCAST_QUEUE_URL,
  } = c.config;
  return new SqsQueue(new SQSClient({ region: AWS_REGION }), {
    ...(EVENTS_QUEUE_URL ? { events: EVENTS_QUEUE_URL } : {}),
    ...(WORKFLOW_QUEUE_URL ? { workflow: WORKFLOW_QUEUE_URL } : {}),
    ...(JOURNEY_QUEUE_URL ? { journey: JOURNEY_QUEUE_URL } : {}),
    ...(WEBHOOKS_QUEUE_URL ? { webhooks: WEBHOOKS_QUEUE_URL } : {}),
    ...(WEBHOOKS_FAILING_QUEUE_URL ? { 'webhooks-failing': WEBHOOKS_FAILING_QUEUE_URL } : {}),
    ...(SYSTEM_MAIL_QUEUE_URL ? { 'system-mail': SYSTEM_MAIL_QUEUE_URL } : {}),
    ...(BROADCAST_QUEUE_URL ? { broadcast: BROADCAST_QUEUE_URL } : {}),
  });
});
