import type { ExecutionRecord, ExecutionStatus } from './execution-record.js';

/** How an execution ends without a send (skip, cancel, fail), from the status it was read in. */
export interface Finish {
  status: Extract<ExecutionStatus, 3 | 4 | 5 | 6>;
  reason?: string;
  /** Cancelled `goal_reached`: the exit event. */
  goalEventId?: number;
  at: string;
}

export interface DeferOptions {
  /**
   * A broadcast recipient goes back to its broadcast's due index (partition id mod `duePartitions`), where its pacer
   * finds it: no message of its own, so the deferral never jumps the pace.
   */
  duePartitions?: number;
}

export interface ExecutionListFilter {
  workflowId?: number;
  status?: ExecutionStatus;
  createdFrom?: string;
  /** Exclusive upper bound. */
  createdBefore?: string;
  page: number;
  perPage: number;
  /**
   * A cursor's position (the listing key `<created_at>#<id>` of the last execution passed): the page is the next
   * executions older than it, `page` only numbers it.
   */
  after?: string;
}

export { TOTAL_LOOKAHEAD } from '../pagination/bounded-page.js';

/** A page of executions: `total` counts the matches seen; `next` is the position after this page, absent at the end. */
export interface ExecutionListPage {
  executions: ExecutionRecord[];
  total: number;
  totalExact: boolean;
  next?: string;
}

export interface ExecutionStore {
  get(clientId: number, executionId: number): Promise<ExecutionRecord | undefined>;
  /**
   * The execution's final state, conditioned on it being unchanged since it was read (status and updated_at);
   * false when another worker moved it meanwhile. Also lowers the contact's `active_workflow_count`.
   */
  finish(execution: ExecutionRecord, finish: Finish): Promise<boolean>;
  /**
   * A deferral: the status stays, `scheduled_for` and the reason move (conditioned as `finish`), and the execution's
   * `deferrals` grows by one (the day counters count it from that change).
   */
  defer(
    execution: ExecutionRecord,
    scheduledFor: string,
    reason: string,
    at: string,
    options?: DeferOptions,
  ): Promise<boolean>;
  /**
   * The client's executions, newest first, filtered, one page. Reads are bounded: a numbered page at most `page ×
   * per_page + TOTAL_LOOKAHEAD` matches per listing shard; a page `after` a position one Query of per_page + 2 items
   * per shard (a selective filter may give a short page, with `next`). `total` is exact when every match was seen,
   * otherwise the number seen (a lower bound, `totalExact` false).
   */
  list(clientId: number, filter: ExecutionListFilter): Promise<ExecutionListPage>;
  /**
   * Pending work older than `before`, across clients: executions at 2 (a claim, or a retry waiting) unchanged since
   * before it, and executions at 1 due before it. The stuck-execution sweep's read (an operator's, never a client's).
   * Paged: pass the returned cursor for the next page.
   */
  listExecutingBefore(before: string, limit: number, cursor?: string): Promise<ExecutingPage>;
  /** 4 → 7 on the original and the new queued execution in one transaction; false when the original is not failed. */
  retry(original: ExecutionRecord, next: ExecutionRecord, at: string): Promise<boolean>;
}

/** One page of the stuck-execution sweep; `cursor` is absent on the last page. */
export interface ExecutingPage {
  executions: { client_id: number; execution_id: number }[];
  cursor?: string;
}
