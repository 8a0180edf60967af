import type { EventTypeDayRow, WorkflowDayRow } from './stats-counters.js';

/** The day rows of a client's counters (written by the day-counters projection of the change stream; read here). */
export interface StatsStore {
  /**
   * Every day row of the client from `fromDay` to `toDay` (UTC yyyy-mm-dd, inclusive): one Query; `workflowId` keeps
   * that workflow's rows only.
   */
  read(
    clientId: number,
    fromDay: string,
    toDay: string,
    workflowId?: number,
  ): Promise<{ workflows: WorkflowDayRow[]; events: EventTypeDayRow[] }>;
}
