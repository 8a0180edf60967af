import * as z from '../../validation/zod.js';

/**
 * The facts an endpoint may subscribe to, produced from the table's change stream
 * (shared/adapters/dynamo/webhook-stream-facts.ts) and delivered by the webhooks queue.
 */
export const WEBHOOK_EVENT_TYPES = [
  'email.sent',
  'email.delivered',
  'email.delivery_delayed',
  'email.bounced',
  'email.complained',
  'email.opened',
  'email.clicked',
  'email.failed',
  'contact.unsubscribed',
  'contact.subscribed',
  'contact.topic_changed',
  'execution.failed',
  'execution.skipped',
  'domain.verified',
  'domain.failed',
  'sending.paused',
  'sending.resumed',
  'journey.entered',
  'journey.step_completed',
  'journey.exited',
  'broadcast.started',
  'broadcast.completed',
] as const;

export const WebhookEventType = z
  .enum(WEBHOOK_EVENT_TYPES, { error: `Must be one of ${WEBHOOK_EVENT_TYPES.join(', ')}` })
  .check(z.meta({ id: 'WebhookEventType', description: 'A fact a webhook endpoint may receive' }));
export type WebhookEventType = z.output<typeof WebhookEventType>;

/** The event the test call delivers, whatever the endpoint subscribed to. */
export const WEBHOOK_TEST_EVENT = 'webhook.test';
