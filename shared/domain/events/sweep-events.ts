import type { BatchMessage, Clock, Queue } from '../../platform.js';
import type { EventStore, QueuedEventPage } from './event-store.js';

/** An event still queued after this long lost its enqueue (the write landed, the SQS send did not). */
export const SWEEP_AFTER_MS = 2 * 60 * 1000;
/** Events per page: one read of the queued index (≈ 250 entries a shard) and one sendBatch (100 SendMessageBatch). */
export const SWEEP_PAGE_SIZE = 1_000;
/**
 * No page is read after this much of a run: enough for 120 000 events at the ≈ 2 000/s estimated for the function's
 * 512 MB (docs/capacity.md §10). functions/scheduled.ts gives it 120 s; the rest covers the page in flight (a few
 * seconds, retries included).
 */
export const SWEEP_BUDGET_MS = 90_000;

export interface SweepOptions {
  /** Only events created at least this many milliseconds ago; default SWEEP_AFTER_MS. 0: every queued event. */
  olderThanMs?: number;
  /** Time after which no further page is read (the page in flight is still sent); default SWEEP_BUDGET_MS. */
  budgetMs?: number;
  /** Default SWEEP_PAGE_SIZE. */
  pageSize?: number;
}

export interface SweepSummary {
  enqueued: number;
  /** Pages of the queued index read (a last, empty page included). */
  pages: number;
  /** The budget ended the run while the index had more: the next run goes on from the oldest. */
  stoppedOnBudget: boolean;
}

export interface SweepDeps {
  events: EventStore;
  queue: Queue;
  clock: Clock;
}

/**
 * The outbox sweeper: events written but never enqueued (the API wrote the event, then the SQS send failed or the
 * function died) are enqueued again, oldest first, a page at a time until none is left or the budget is spent; the
 * next page is read while the current one is sent. Processing is idempotent on the event id, so one enqueued twice
 * is harmless — and a run may well enqueue again what the previous run enqueued and the consumers have not processed
 * yet. AWS: a scheduled function every 5 minutes; locally, on boot and every 5 minutes.
 */
export async function sweepQueuedEvents(deps: SweepDeps, options: SweepOptions = {}): Promise<SweepSummary> {
  const { olderThanMs = SWEEP_AFTER_MS, budgetMs = SWEEP_BUDGET_MS, pageSize = SWEEP_PAGE_SIZE } = options;
  const started = deps.clock.now().getTime();
  const before = new Date(started - olderThanMs).toISOString();
  const read = (cursor?: string): Promise<QueuedEventPage> => deps.events.listQueuedBefore(before, pageSize, cursor);
  let enqueued = 0;
  let pages = 0;
  let next: Promise<QueuedEventPage> | undefined = read();
  while (next) {
    const page: QueuedEventPage = await next;
    pages += 1;
    const withinBudget = deps.clock.now().getTime() - started < budgetMs;
    next = page.cursor !== undefined && withinBudget ? read(page.cursor) : undefined;
    if (page.events.length > 0) {
      const messages = page.events.map(
        (e): BatchMessage<'events'> => ({ message: { client_id: e.client_id, event_id: e.id } }),
      );
      try {
        await deps.queue.sendBatch('events', messages);
      } catch (error) {
        next?.catch(() => undefined); // the read ahead is abandoned
        throw new Error(`the outbox sweep stopped after ${enqueued} events in ${pages - 1} pages`, { cause: error });
      }
      enqueued += page.events.length;
    }
    if (page.cursor !== undefined && !withinBudget) return { enqueued, pages, stoppedOnBudget: true };
  }
  return { enqueued, pages, stoppedOnBudget: false };
}

/**
 * Every queued event, whatever its age, with no budget: the local runtime's boot with DATA_DIR, whose in-process
 * queue lost every message of the previous run.
 */
export function sweepAllQueuedEvents(deps: SweepDeps): Promise<SweepSummary> {
  return sweepQueuedEvents(deps, { olderThanMs: 0, budgetMs: Number.POSITIVE_INFINITY });
}
