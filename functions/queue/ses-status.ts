import * as z from '../../shared/validation/zod.js';
import { clientStore } from '../../shared/composition/providers/client-store.js';
import { clock } from '../../shared/composition/providers/clock.js';
import { queue } from '../../shared/composition/providers/queue.js';
import { trackingStore } from '../../shared/composition/providers/tracking-store.js';
import { trackNotification } from '../../shared/domain/tracking/track-notification.js';
import { logger } from '../../shared/logger.js';
import { sqsBatch } from '../../shared/queue/sqs-batch.js';

/** The body is the provider's JSON (SNS envelope or raw SES event), parsed by the domain: only "a JSON object" here. */
const SesStatusBody = z.record(z.string(), z.unknown());

/**
 * ses-status queue (SES configuration set → SNS → SQS) → one log per notification on its sent e-mail. A message id
 * this service does not know, or a body that is no SES notification, is acknowledged and counted in the logs (never
 * retried); a store failure is thrown, so SQS delivers the notification again. A notification of an e-mail whose send
 * was never recorded wakes its waiting execution (workflow queue, crash recovery).
 */
export const handler = sqsBatch(
  SesStatusBody,
  [trackingStore, clientStore, clock, queue],
  async (body, { deps, messageId }) => {
    const outcome = await trackNotification(deps, body);
    if (outcome.kind === 'system_mail') {
      // Counted apart from clients' mail (a metric filter per kind on AWS); SES's suppression list stops further sends.
      if (outcome.event === 'bounce' || outcome.event === 'complaint') {
        logger.warn('system e-mail ' + outcome.event, {
          message_id: messageId,
          metric: `system_mail_${outcome.event}`,
        });
      }
    } else if (outcome.kind === 'ignored')
      logger.warn('not an SES status notification; acknowledged', { message_id: messageId, reason: outcome.reason });
    else if (outcome.kind === 'unknown_message') {
      logger.info('unknown SES message id; acknowledged', {
        message_id: messageId,
        provider_message_id: outcome.provider_message_id,
        metric: 'ses_status_unknown_message',
      });
    } else if (outcome.kind === 'recorded' && outcome.paused) {
      logger.warn('client sending paused by the deliverability guard', { client_id: outcome.client_id });
    }
  },
);
