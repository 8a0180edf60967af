import { EXECUTION_STATUS, type ExecutionRecord } from '../../domain/executions/execution-record.js';
import { executionItem } from './execution-item.js';
import { duePartitionOf } from '../../domain/broadcasts/engine/due-partitions.js';
import { keys } from './keys.js';

/**
 * A broadcast recipient as a table item: the execution's item, listed under its broadcast (gsi1, by contact) instead
 * of the client's executions, and — while queued — waiting in the broadcast's due index (gsi3, partition id mod S)
 * instead of the stuck-execution index.
 */
export function recipientItem(execution: ExecutionRecord, partitions: number) {
  const {
    gsi3pk: _pk,
    gsi3sk: _sk,
    ...item
  } = executionItem(execution) as ReturnType<typeof executionItem> & {
    gsi3pk?: string;
    gsi3sk?: string;
  };
  const broadcastId = execution.broadcast_id!;
  return {
    ...item,
    ...keys.broadcastRecipientListing(execution.client_id, broadcastId, execution.contact_id, execution.id),
    ...(execution.status === EXECUTION_STATUS.queued
      ? dueEntryOf(
          execution.client_id,
          broadcastId,
          execution.id,
          execution.scheduled_for,
          partitions,
          execution.holdout === true,
        )
      : {}),
  };
}

/**
 * A recipient's place in its broadcast's due index: partition `id mod S`, by due time; an A/B test's holdout in
 * `S + id mod S` (holdoutPartitionOf), which the pacer reads only once the winner is chosen.
 */
export const dueEntryOf = (
  clientId: number,
  broadcastId: number,
  executionId: number,
  scheduledFor: string,
  partitions: number,
  holdout = false,
) =>
  keys.broadcastDueEntry(
    clientId,
    broadcastId,
    duePartitionOf(executionId, partitions, holdout),
    scheduledFor,
    executionId,
  );

/**
 * What an execution's end takes off its contact's `active_workflow_count`: a broadcast's recipient never raised it
 * (its snapshot writes no contact: a million contact writes, and a million stream records, saved).
 */
export const endedActive = (execution: Pick<ExecutionRecord, 'broadcast_id'>): number =>
  execution.broadcast_id !== undefined ? 0 : -1;
