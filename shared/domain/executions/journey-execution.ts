import type { RunMessage } from '../../platform.js';
import { categoryOf, type WorkflowCategory } from '../workflows/catalog.js';
import { EXECUTION_STATUS, type ExecutionRecord, type ExecutionStatus } from './execution-record.js';

/** A journey's send step: an execution that carries its run (and so its journey's category and topic). */
export const isJourneySend = (
  execution: Pick<ExecutionRecord, 'run_id'>,
): execution is Pick<ExecutionRecord, 'run_id'> & { run_id: number } => execution.run_id !== undefined;

/** A broadcast's recipient: an execution that carries its broadcast (and so its category and topic). */
export const isBroadcastSend = (
  execution: Pick<ExecutionRecord, 'broadcast_id'>,
): execution is Pick<ExecutionRecord, 'broadcast_id'> & { broadcast_id: number } =>
  execution.broadcast_id !== undefined;

/**
 * An execution that carries its own category and topic (a journey's send, a broadcast's recipient or test send): no
 * workflow customization names them, and no enabled_workflows setting switches it.
 */
export const carriesOwnSettings = (
  execution: Pick<ExecutionRecord, 'run_id' | 'broadcast_id' | 'broadcast_test_of'>,
): boolean => isJourneySend(execution) || isBroadcastSend(execution) || execution.broadcast_test_of !== undefined;

/**
 * The category the execution's mail goes under: a journey's send carries its journey's (categoryOf knows only the 8
 * system workflows, and would call every journey marketing); the 8's executions take their catalog workflow's.
 */
export const executionCategoryOf = (execution: Pick<ExecutionRecord, 'workflow_id' | 'category'>): WorkflowCategory =>
  execution.category ?? categoryOf(execution.workflow_id);

/** Statuses an execution never leaves (retried 7 is a failed one a new execution replaced). */
const ENDED: readonly ExecutionStatus[] = [
  EXECUTION_STATUS.completed,
  EXECUTION_STATUS.failed,
  EXECUTION_STATUS.cancelled,
  EXECUTION_STATUS.skipped,
  EXECUTION_STATUS.retried,
];

export const hasEnded = (status: ExecutionStatus): boolean => ENDED.includes(status);

/**
 * The message that wakes the run a send step's execution belongs to: its seq is the one the run took when it created
 * the execution, so a wake that comes late (the run moved on) does nothing; the contact and the execution are hints
 * that let advance-runs read everything in one BatchGet.
 */
export const runWakeOf = (execution: ExecutionRecord): RunMessage | undefined =>
  execution.run_id === undefined || execution.run_seq === undefined
    ? undefined
    : {
        client_id: execution.client_id,
        run_id: execution.run_id,
        seq: execution.run_seq,
        contact_id: execution.contact_id,
        execution_id: execution.id,
        journey_id: execution.workflow_id,
        ...(execution.journey_version !== undefined ? { version: execution.journey_version } : {}),
      };
