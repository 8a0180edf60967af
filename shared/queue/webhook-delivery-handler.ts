import * as z from '../validation/zod.js';
import { clientNotices } from '../composition/providers/client-notices.js';
import { clientStore } from '../composition/providers/client-store.js';
import { clock } from '../composition/providers/clock.js';
import { queue } from '../composition/providers/queue.js';
import { scheduler } from '../composition/providers/scheduler.js';
import { webhookOutbox } from '../composition/providers/webhook-outbox.js';
import { webhookSender } from '../composition/providers/webhook-sender.js';
import { webhookStore } from '../composition/providers/webhook-store.js';
import { deliverWebhook, type DeliveryLane } from '../domain/webhooks/deliver-webhook.js';
import type { WebhookDeliveryMessage } from '../platform.js';
import { logger } from '../logger.js';
import { sqsBatch } from './sqs-batch.js';

const DeliveryBody = z.object({
  client_id: z.int().check(z.positive()),
  webhook_id: z.int().check(z.positive()),
  message_id: z.string().check(z.regex(/^msg_[0-9a-f]{32}$/)),
  attempt: z.int().check(z.gte(1)),
  replay: z.optional(z.boolean()),
}) satisfies z.ZodMiniType<WebhookDeliveryMessage>;

/**
 * The consumer of one webhook lane (functions/queue/deliver-webhook*.ts): records of a batch run in parallel, so one
 * endpoint's 10 s timeout does not hold another's delivery back. An endpoint's failure is not the message's: it is
 * logged as an attempt and the next one queued, and the message is acknowledged. Only a store or queue failure is
 * thrown (SQS delivers the message again, the DLQ after 5).
 */
export function deliveryHandler(lane: DeliveryLane) {
  return sqsBatch(
    DeliveryBody,
    [webhookStore, webhookOutbox, webhookSender, queue, scheduler, clientStore, clientNotices, clock],
    async (message, { deps }) => {
      const retrySchedule = deps.config.WEBHOOK_RETRY_SCHEDULE_SECONDS;
      const outcome = await deliverWebhook({ ...deps, ...(retrySchedule ? { retrySchedule } : {}) }, message, lane);
      if (outcome.kind === 'dropped') {
        logger.info('webhook delivery dropped', {
          client_id: message.client_id,
          webhook_id: message.webhook_id,
          reason: outcome.reason,
        });
      } else if (outcome.kind === 'failed') {
        logger.warn('webhook message failed every attempt', {
          client_id: message.client_id,
          webhook_id: message.webhook_id,
          message_id: message.message_id,
          disabled: outcome.disabled,
          metric: 'webhook_message_failed',
        });
      }
    },
  );
}
