import type { Clock, Queue, RunMessage } from '../../platform.js';
import type { DueRun, RunStore } from './run-store.js';

export interface SweepRunsDeps {
  runs: Pick<RunStore, 'dueBefore'>;
  queue: Queue;
  clock: Clock;
}

export interface SweepRunsOptions {
  /** Stop paging after this long (the scheduled function's timeout, less a margin); the next run goes on. */
  budgetMs?: number;
  /** Runs per page (one Query per shard touched, one BatchGetItem per 100, one SendMessageBatch per 10). */
  pageSize?: number;
}

export interface SweepRunsResult {
  enqueued: number;
  pages: number;
  stoppedOnBudget: boolean;
}

/** A run's message is only late past this: a run just due is on its way (its delayed message or schedule). */
export const STUCK_RUN_AFTER_MS = 2 * 60 * 1000;

/** The message a swept run gets: its current seq, and the hints its read uses. */
export const sweptMessageOf = (run: DueRun): RunMessage => ({
  client_id: run.client_id,
  run_id: run.run_id,
  seq: run.seq,
  contact_id: run.contact_id,
  ...(run.execution_id !== undefined ? { execution_id: run.execution_id } : {}),
  journey_id: run.journey_id,
  version: run.version,
});

/**
 * The stuck-run sweep, beside the stuck-execution sweep: every run still active or waiting whose due time passed more
 * than 2 minutes ago is sent its current seq. Messages normally bring runs back; this catches the rest — a worker that
 * died after its transition and before its dispatch, a dispatch that failed, a wake an ended execution could not send.
 * Harmless on a run whose message is only slow: advance-runs moves a run once per seq. Requests: one Query per RUNDUE
 * shard page + one BatchGetItem per 100 runs (their seq) + one SendMessageBatch per 10.
 */
export async function sweepStuckRuns(deps: SweepRunsDeps, options: SweepRunsOptions = {}): Promise<SweepRunsResult> {
  const started = deps.clock.now().getTime();
  const budgetMs = options.budgetMs ?? 40_000;
  const pageSize = options.pageSize ?? 500;
  const before = new Date(started - STUCK_RUN_AFTER_MS).toISOString();
  let cursor: string | undefined;
  let enqueued = 0;
  let pages = 0;
  do {
    const page = await deps.runs.dueBefore(before, pageSize, cursor);
    pages += 1;
    if (page.runs.length > 0)
      await deps.queue.sendBatch(
        'journey',
        page.runs.map((run) => ({ message: sweptMessageOf(run) })),
      );
    enqueued += page.runs.length;
    cursor = page.cursor;
  } while (cursor && deps.clock.now().getTime() - started < budgetMs);
  return { enqueued, pages, stoppedOnBudget: cursor !== undefined };
}
