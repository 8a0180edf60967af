import type { BroadcastMessage } from '../../../platform.js';
import { EXECUTION_STATUS, type ExecutionRecord } from '../../executions/execution-record.js';
import type { EngineBroadcast } from '../recipient-store.js';
import { startPacing } from './pacer.js';
import type { EngineDeps } from './start.js';

/** Entries of the recipient listing a retry page reads: each failed one is 2 items of its transaction (+ the head). */
export const RETRY_PAGE = 49;
/** States whose failed recipients may be sent again. */
export const RETRYABLE = new Set(['snapshotting', 'sending', 'paused', 'sent']);
/** Attempts of a page whose head moved between its read and its write (the pacer ended it, a pause). */
const HEAD_ATTEMPTS = 3;

/**
 * The new execution of a failed recipient, as the single retry endpoint makes one: queued now, attempt + 1,
 * `retried_from` the original; its reason, end and sent e-mail left behind. It waits in the broadcast's due index, so
 * the pacer releases it at the broadcast's pace.
 */
export function retriedOf(original: ExecutionRecord, id: number, now: Date): ExecutionRecord {
  const at = now.toISOString();
  const { reason: _reason, processed_at: _processed, sent_email_id: _sent, claim: _claim, ...kept } = original;
  return {
    ...kept,
    id,
    status: EXECUTION_STATUS.queued,
    attempt: original.attempt + 1,
    retried_from: original.id,
    scheduled_for: at,
    cap_day: at.slice(0, 10),
    created_at: at,
    updated_at: at,
  };
}

/**
 * One page of a broadcast's retry-failed job over one shard of its recipient listing: the failed (4) recipients among
 * the next entries after the message's cursor, each moved 4 → 7 retried with its new execution, all in one transaction
 * conditioned on each original still being failed (a redelivered page, a duplicate chain, a second retry request find
 * them retried and write nothing); then the pacer restarted (a sent broadcast back to sending in the same
 * transaction) and the next page's message. A page whose originals moved meanwhile is written one recipient at a
 * time, skipping those no longer failed.
 * Requests a page: 1 GetItem, 1 Query, (1 UpdateItem of ids, 1 TransactWriteItems, 1 SendMessage pace), 1 SendMessage.
 */
export async function retryFailedPage(deps: EngineDeps, message: BroadcastMessage): Promise<string> {
  const { client_id: clientId, broadcast_id: broadcastId } = message;
  const shard = message.shard ?? 0;
  let head = await deps.recipients.head(clientId, broadcastId);
  if (!head || !RETRYABLE.has(head.status)) return 'stopped';
  const page = await deps.recipients.failedPage(clientId, broadcastId, shard, message.cursor, RETRY_PAGE);
  let retried = 0;
  if (page.failed.length > 0) {
    const now = deps.clock.now();
    const at = now.toISOString();
    const first = await deps.ids.next('broadcast_recipient', page.failed.length);
    const pairs = page.failed.map((original, i) => ({ original, next: retriedOf(original, first + i, now) }));
    for (let attempt = 1; ; attempt++) {
      const outcome = await deps.recipients.retryPage(head, pairs, at);
      if (outcome === 'written') {
        retried = pairs.length;
        break;
      }
      if (outcome === 'changed') {
        retried = await oneByOne(deps, head, pairs, at);
        break;
      }
      const again = attempt < HEAD_ATTEMPTS ? await deps.recipients.head(clientId, broadcastId) : undefined;
      if (!again || !RETRYABLE.has(again.status)) return 'stopped';
      head = again;
    }
    // Also when nothing was counted as written here: a transaction whose answer was lost and whose retry met its own
    // first attempt wrote the page all the same (its originals read retried).
    if (head.status !== 'paused') await startPacing(deps, head);
  }
  if (!page.end && page.cursor !== undefined)
    await deps.queue.send('broadcast', {
      client_id: clientId,
      broadcast_id: broadcastId,
      kind: 'retry',
      shard,
      cursor: page.cursor,
    });
  return retried > 0 ? 'retried' : page.end ? 'done' : 'page';
}

/** A page whose transaction met a recipient no longer failed: each on its own, those still failed retried. */
async function oneByOne(
  deps: EngineDeps,
  head: EngineBroadcast,
  pairs: readonly { original: ExecutionRecord; next: ExecutionRecord }[],
  at: string,
): Promise<number> {
  let retried = 0;
  let current = head;
  for (const pair of pairs) {
    let outcome = await deps.recipients.retryPage(current, [pair], at);
    if (outcome === 'head') {
      const again = await deps.recipients.head(head.client_id, head.id);
      if (!again || !RETRYABLE.has(again.status)) return retried;
      current = again;
      outcome = await deps.recipients.retryPage(current, [pair], at);
    }
    if (outcome === 'written') retried += 1;
  }
  return retried;
}
