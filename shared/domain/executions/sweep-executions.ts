import type { Clock, Queue } from '../../platform.js';
import type { ExecutionStore } from './execution-store.js';

export interface SweepExecutionsDeps {
  executions: Pick<ExecutionStore, 'listExecutingBefore'>;
  queue: Queue;
  clock: Clock;
  /** The executor's lease (EXECUTION_LEASE_SECONDS): claims older than this are looked at again. */
  leaseMs: number;
}

export interface SweepExecutionsOptions {
  /** Stop paging after this long (the scheduled function's timeout, less a margin); the next run goes on. */
  budgetMs?: number;
  /** Executions per page (one Query per shard touched, one SendMessageBatch per 10). */
  pageSize?: number;
}

export interface SweepExecutionsResult {
  enqueued: number;
  pages: number;
  /** True when the budget ended the sweep before the index was read to its end. */
  stoppedOnBudget: boolean;
}

/**
 * The stuck-execution sweep, beside the outbox sweeper: every execution still at 2 (a claim, or a
 * retry waiting for its message) whose lease ended, and every queued one due for longer than the lease, is sent to the
 * workflow queue again; the executor sends it, or decides a claim from evidence (settle-claim.ts). Messages normally
 * bring them back; this catches the rest — a message that reached the DLQ (an event processed at its last receive
 * whose dispatch then failed, as a chaos run under `sqs:send-fail` showed), a re-dispatch lost with its worker.
 * Idempotent: the executor ignores an execution that has moved meanwhile. Requests: one Query per index shard page +
 * one SendMessageBatch per 10.
 */
export async function sweepStuckExecutions(
  deps: SweepExecutionsDeps,
  options: SweepExecutionsOptions = {},
): Promise<SweepExecutionsResult> {
  const started = deps.clock.now().getTime();
  const budgetMs = options.budgetMs ?? 40_000;
  const pageSize = options.pageSize ?? 500;
  const before = new Date(started - deps.leaseMs).toISOString();
  let cursor: string | undefined;
  let enqueued = 0;
  let pages = 0;
  do {
    const page = await deps.executions.listExecutingBefore(before, pageSize, cursor);
    pages += 1;
    if (page.executions.length > 0) {
      await deps.queue.sendBatch(
        'workflow',
        page.executions.map((e) => ({ message: { client_id: e.client_id, execution_id: e.execution_id } })),
      );
    }
    enqueued += page.executions.length;
    cursor = page.cursor;
  } while (cursor && deps.clock.now().getTime() - started < budgetMs);
  return { enqueued, pages, stoppedOnBudget: cursor !== undefined };
}
