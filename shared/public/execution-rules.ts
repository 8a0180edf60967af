/** The execution status values, by name (a run's transitions are the engine's). */
export const EXECUTION_STATUS = {
  queued: 1,
  executing: 2,
  completed: 3,
  failed: 4,
  cancelled: 5,
  skipped: 6,
  retried: 7,
} as const;
export type ExecutionStatus = (typeof EXECUTION_STATUS)[keyof typeof EXECUTION_STATUS];

/** The status values' names, by number, as the API's `status_text` says them and its `status` filter takes them. */
export const EXECUTION_STATUS_TEXT: Record<ExecutionStatus, string> = {
  1: 'queued',
  2: 'executing',
  3: 'completed',
  4: 'failed',
  5: 'cancelled',
  6: 'skipped',
  7: 'retried',
};
