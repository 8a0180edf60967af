import { created } from '../../shared/http/envelope.js';
import { jsonApi } from '../../shared/http/api.js';
import { broadcastStore } from '../../shared/composition/providers/broadcast-store.js';
import { clock } from '../../shared/composition/providers/clock.js';
import { journeyTime } from '../../shared/composition/providers/journey-time.js';
import { queue } from '../../shared/composition/providers/queue.js';
import { scheduler } from '../../shared/composition/providers/scheduler.js';
import { resendBroadcast } from '../../shared/domain/broadcasts/resend-broadcast.js';
import { BroadcastIdParams, BroadcastResendBody, BroadcastView } from '../../shared/domain/broadcasts/schemas.js';

/** POST /client/broadcasts/{id}/resend. */
export const handler = jsonApi(
  {
    summary: 'Resend a broadcast to its non-openers',
    description:
      "A new broadcast (`kind: resend`, `parent_id`) with another subject, scheduled `after_hours` after this one's " +
      'start (at once when that has passed): it goes to the recipients whose e-mail was sent and opened by no person ' +
      'when the resend starts (machine opens: Apple Mail Privacy Protection, link scanners, never count), each once, ' +
      'with its own recipients and totals; cancel it as any broadcast. This broadcast shows it as `resend_id`. ' +
      '409 `state` when this broadcast has not started (a draft, scheduled or cancelled before its start) or already ' +
      'has its resend (one a broadcast).',
    params: BroadcastIdParams,
    body: BroadcastResendBody,
    responses: { 201: BroadcastView },
    errors: [404, 409, 422],
  },
  [broadcastStore, queue, scheduler, clock, journeyTime],
  async ({ params, body }, { deps, clientId }) =>
    created(await resendBroadcast(deps, clientId, params.id, body), 'Resend scheduled'),
);
