import type { BroadcastMessage } from '../../../platform.js';
import { allPartitionsOf } from './due-partitions.js';
import type { EngineDeps } from './start.js';

/** Why a recipient of a cancelled broadcast ends without a send. */
export const BROADCAST_CANCELLED = 'broadcast_cancelled';
/** Recipients read per due partition a page; each is ended by its own conditional write, a wave in parallel. */
const CANCEL_PAGE = 25;

/**
 * One page of a cancelled broadcast's cancel job: per due partition the first waiting recipients (one Query each, one
 * wave), each ended 1 → 5 `broadcast_cancelled` by its own conditional write (one claimed meanwhile is its worker's,
 * and the executor cancels any it meets before sending: the head says cancelled). Ended recipients leave the due
 * index, so each page reads from the start again: a redone page finds fewer. A full page sends the next page's
 * message and moves the live entry (the job's beat); the last removes it.
 * Requests a page: 1 GetItem, S Queries, up to 25 × S UpdateItem, 1 UpdateItem, 1 SendMessage.
 */
export async function cancelRecipients(deps: EngineDeps, message: BroadcastMessage): Promise<string> {
  const head = await deps.recipients.head(message.client_id, message.broadcast_id);
  if (!head || head.status !== 'cancelled') return 'stopped';
  const now = deps.clock.now().toISOString();
  // An A/B test's holdouts wait in partitions of their own: they are ended too.
  const partitions = head.shards === undefined ? 0 : allPartitionsOf(head);
  const waiting = await Promise.all(
    Array.from({ length: partitions }, (_, p) => deps.recipients.dueAfter(head, p, undefined, CANCEL_PAGE)),
  );
  const ids = waiting.flat().map((entry) => entry.execution_id);
  await deps.recipients.cancelWaiting(head.client_id, ids, BROADCAST_CANCELLED, now);
  if (waiting.some((entries) => entries.length === CANCEL_PAGE)) {
    await deps.recipients.markCancelJob(head, now);
    await deps.queue.send('broadcast', { client_id: head.client_id, broadcast_id: head.id, kind: 'cancel' });
    return 'page';
  }
  await deps.recipients.markCancelJob(head, undefined);
  return 'done';
}
