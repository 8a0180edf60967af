import {
  addCounts,
  addReasons,
  zeroCounts,
  type EventTypeDayRow,
  type EventTypeIncrement,
  type StatsIncrement,
  type WorkflowDayRow,
} from '../../domain/stats/stats-counters.js';
import type { StatsStore } from '../../domain/stats/stats-store.js';

/**
 * The day counters in memory: the memory stores add to it where their DynamoDB twins add a counter update to the
 * transaction that records the fact, and it answers reads as DynamoStatsStore does (shards summed, as a read sums them).
 */
export class MemoryStatsStore implements StatsStore {
  /** `<client>#<day>#<workflow>` → row. */
  readonly workflowRows = new Map<string, WorkflowDayRow & { clientId: number }>();
  /** `<client>#<day>#<type>` → row. */
  readonly eventRows = new Map<string, EventTypeDayRow & { clientId: number }>();

  add(increment: StatsIncrement): void {
    const key = `${increment.clientId}#${increment.day}#${increment.workflowId}`;
    let row = this.workflowRows.get(key);
    if (!row) {
      row = { clientId: increment.clientId, day: increment.day, workflowId: increment.workflowId, counts: zeroCounts(), skippedReasons: {}, failedReasons: {} };
      this.workflowRows.set(key, row);
    }
    addCounts(row.counts, increment.counts);
    if (increment.skippedReason && increment.counts.skipped) addReasons(row.skippedReasons, { [increment.skippedReason]: increment.counts.skipped });
    if (increment.failedReason && increment.counts.failed) addReasons(row.failedReasons, { [increment.failedReason]: increment.counts.failed });
  }

  addEvent(increment: EventTypeIncrement): void {
    const key = `${increment.clientId}#${increment.day}#${increment.type}`;
    const row = this.eventRows.get(key) ?? { clientId: increment.clientId, day: increment.day, type: increment.type, received: 0 };
    row.received += 1;
    this.eventRows.set(key, row);
  }

  async read(clientId: number, fromDay: string, toDay: string, workflowId?: number) {
    const inRange = (row: { clientId: number; day: string }) => row.clientId === clientId && row.day >= fromDay && row.day <= toDay;
    const strip = <T extends { clientId: number }>({ clientId: _c, ...row }: T) => structuredClone(row);
    return {
      workflows: [...this.workflowRows.values()].filter((r) => inRange(r) && (workflowId === undefined || r.workflowId === workflowId)).map(strip),
      events: workflowId === undefined ? [...this.eventRows.values()].filter(inRange).map(strip) : [],
    };
  }
}
