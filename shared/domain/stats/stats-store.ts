import type { EventTypeDayRow, WorkflowDayRow } from './stats-counters.js';

/** The day rows of a client's counters (written by the stores that record each fact; read here). */
export interface StatsStore {
  /**
   * Every day row of the client from `fromDay` to `toDay` (UTC yyyy-mm-dd, inclusive) in its shards 0..`shards` − 1
   * (statsReadShardsOf the client): one Query per shard, in parallel — one Query for a client never sharded;
   * `workflowId` keeps that workflow's rows only.
   */
  read(
    clientId: number,
    shards: number,
    fromDay: string,
    toDay: string,
    workflowId?: number,
  ): Promise<{ workflows: WorkflowDayRow[]; events: EventTypeDayRow[] }>;
}
