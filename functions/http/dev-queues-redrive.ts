import * as z from '../../shared/validation/zod.js';
import { deadLetters } from '../../shared/composition/providers/dead-letters.js';
import { ok } from '../../shared/http/envelope.js';
import { publicApi } from '../../shared/http/public-api.js';
import { QUEUE_NAMES } from '../../shared/platform.js';

const QueueParams = z.object({ queue: z.enum(QUEUE_NAMES) });

/**
 * POST /api/v1/dev/queues/{queue}/redrive — local runtime only (`localOnly` in the route table: never built on AWS,
 * where `npm run admin -- redrive --aws` starts an SQS message move task). Moves the in-process queue's dead letters
 * of that queue back to it, to be delivered again; 200 with how many moved (0 when there were none).
 */
export const handler = publicApi(
  {
    summary: "Move a queue's dead letters back (local runtime only)",
    params: QueueParams,
    responses: { 200: z.object({ queue: z.enum(QUEUE_NAMES), moved: z.int() }) },
  },
  [deadLetters],
  async ({ params }, { deps }) => {
    const outcome = await deps.deadLetters.redrive(params.queue);
    // The local runtime puts its in-process queue behind this port; anything else is a wiring mistake.
    if (outcome.kind !== 'moved')
      throw new Error(`dev-queues-redrive reached a queue that cannot count its moves (${outcome.kind})`);
    return ok(
      { queue: params.queue, moved: outcome.moved },
      outcome.moved === 0 ? 'No dead letters' : 'Dead letters moved back',
    );
  },
);
