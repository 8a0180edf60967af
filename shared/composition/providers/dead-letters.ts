import { SQSClient } from '@aws-sdk/client-sqs';
import { SqsDeadLetters } from '../../adapters/sqs/sqs-dead-letters.js';
import { provide } from '../container.js';

/**
 * Redrive of the queues' DLQs through SQS, for the queues this function was given URLs of. No deployed function lists
 * it (the admin CLI builds its own, and the local runtime puts its in-process queue here).
 */
export const deadLetters = provide('deadLetters', (c) => {
  const {
    AWS_REGION,
    EVENTS_QUEUE_URL,
    WORKFLOW_QUEUE_URL,
    JOURNEY_QUEUE_URL,
    WEBHOOKS_QUEUE_URL,
    WEBHOOKS_FAILING_QUEUE_URL,
  } = c.config;
  return new SqsDeadLetters(new SQSClient({ region: AWS_REGION }), {
    ...(EVENTS_QUEUE_URL ? { events: EVENTS_QUEUE_URL } : {}),
    ...(WORKFLOW_QUEUE_URL ? { workflow: WORKFLOW_QUEUE_URL } : {}),
    ...(JOURNEY_QUEUE_URL ? { journey: JOURNEY_QUEUE_URL } : {}),
    ...(WEBHOOKS_QUEUE_URL ? { webhooks: WEBHOOKS_QUEUE_URL } : {}),
    ...(WEBHOOKS_FAILING_QUEUE_URL ? { 'webhooks-failing': WEBHOOKS_FAILING_QUEUE_URL } : {}),
  });
});
