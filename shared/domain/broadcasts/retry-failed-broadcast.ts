import { conflict, notFound } from '../../errors.js';
import type { Queue } from '../../platform.js';
import type { BroadcastStore } from './broadcast-store.js';
import { RETRYABLE } from './engine/retry-failed.js';
import type { BroadcastRetryView } from './schemas.js';

/** Shards of a broadcast's recipient listing (keys.broadcastRecipientShards): one retry chain each. */
const LISTING_SHARDS = 16;

/**
 * POST …/{id}/retry-failed: a started broadcast's failed recipients sent again, by a paged job on the broadcast queue
 * (one chain per listing shard, one transaction a page: each failed one 4 → 7 retried with its new execution, which
 * the pacer releases as any other; a sent broadcast goes back to sending). A second request, or a redelivered page,
 * finds them retried and sends nothing more. Answers how many are queued: the failed as counted less those retried.
 * Requests: 1 BatchGetItem (head, totals), 2 SendMessageBatch.
 */
export async function retryFailedBroadcast(
  deps: { broadcasts: BroadcastStore; queue: Queue },
  clientId: number,
  id: number,
): Promise<BroadcastRetryView> {
  const { broadcast, totals } = await deps.broadcasts.get(clientId, id);
  if (!broadcast) throw notFound('id', 'Broadcast not found');
  if (!broadcast.started_at || !RETRYABLE.has(broadcast.status))
    throw conflict('state', 'status', `A ${broadcast.status} broadcast has no failed recipients to send again`);
  await deps.queue.sendBatch(
    'broadcast',
    Array.from({ length: LISTING_SHARDS }, (_, shard) => ({
      message: { client_id: clientId, broadcast_id: id, kind: 'retry' as const, shard },
    })),
  );
  const failed = totals?.counts.failed ?? 0;
  return { broadcast_id: id, retrying: Math.max(0, failed - (broadcast.retried ?? 0)) };
}
