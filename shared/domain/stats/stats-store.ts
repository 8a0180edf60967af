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
  /**
   * One journey's step day rows from `fromDay` to `toDay` (one Query) and its gauge, the runs at each step now (one
   * GetItem), in one wave.
   */
  readJourney(clientId: number, journeyId: number, fromDay: string, toDay: string): Promise<JourneyCounters>;
  /** Only the gauge (one GetItem): runs at each step now. */
  readJourneyGauge(clientId: number, journeyId: number): Promise<Record<string, number>>;
}

/** A journey step's counters of one day: `entered`, `left`, `sent`, `completed`, `exited`, `ended`, `v_<way>`. */
export interface JourneyStepDayRow {
  day: string;
  stepId: string;
  counts: Record<string, number>;
}

export interface JourneyCounters {
  days: JourneyStepDayRow[];
  /** Step id → runs in flight there now. */
  now: Record<string, number>;
  /** The gauge's split arm totals since each split began, by attribute (`x_<split>:<metric>:<arm>`, `x_<split>:since`). */
  arms: Record<string, number>;
}
