import * as z from '../../shared/validation/zod.js';
import { queue } from '../../shared/composition/providers/queue.js';
import { parseSesNotification } from '../../shared/domain/tracking/ses-notification.js';
import { invalidField } from '../../shared/errors.js';
import { accepted } from '../../shared/http/envelope.js';
import { publicApi } from '../../shared/http/public-api.js';

/**
 * POST /api/v1/dev/ses-events — local runtime only (`localOnly` in the route table: never built on AWS). Replays an
 * SES status notification — an SNS envelope or the raw SES event, either shape — through the same status queue the
 * local SES feeds, so a captured real notification can be tried. 202 once queued; 422 when it is no SES notification.
 */
export const handler = publicApi(
  {
    summary: 'Replay an SES notification (local runtime only)',
    body: z.record(z.string(), z.unknown()),
    responses: {
      202: z.object({ provider_message_id: z.string(), kind: z.string(), status: z.int() }),
    },
  },
  [queue],
  async ({ body }, { deps }) => {
    const parsed = parseSesNotification(body);
    if (!parsed.ok) throw invalidField('format', 'body', `Not an SES status notification: ${parsed.reason}`);
    await deps.queue.send('ses-status', body);
    const { kind, messageId, status } = parsed.event;
    return accepted({ provider_message_id: messageId, kind, status }, 'Notification queued');
  },
);
