import {
  addCounts,
  addReasons,
  statsShardOf,
  zeroCounts,
  type EventTypeDayRow,
  type EventTypeIncrement,
  type StatsIncrement,
  type WorkflowDayRow,
} from '../../domain/stats/stats-counters.js';
import type { StatsStore } from '../../domain/stats/stats-store.js';

/**
 * The day counters in memory: the memory stores add to it where their DynamoDB twins add a counter update to the
 * transaction that records the fact, and it answers reads as DynamoStatsStore does — the same shards (`spread mod
 * shards`), only shards 0..`shards` − 1 read, one row per shard returned (a read sums them).
 */
export class MemoryStatsStore implements StatsStore {
  /** `<client>#<shard>#<day>#<workflow>` → row. */
  readonly workflowRows = new Map<string, WorkflowDayRow & { clientId: number; shard: number }>();
  /** `<client>#<shard>#<day>#<type>` → row. */
  readonly eventRows = new Map<string, EventTypeDayRow & { clientId: number; shard: number }>();

  add(increment: StatsIncrement): void {
    const shard = statsShardOf(increment.spread, increment.shards);
    const key = `${increment.clientId}#${shard}#${increment.day}#${increment.workflowId}`;
    let row = this.workflowRows.get(key);
    if (!row) {
      row = {
        clientId: increment.clientId,
        shard,
        day: increment.day,
        workflowId: increment.workflowId,
        counts: zeroCounts(),
        skippedReasons: {},
        failedReasons: {},
      };
      this.workflowRows.set(key, row);
    }
    addCounts(row.counts, increment.counts);
    if (increment.skippedReason && increment.counts.skipped)
      addReasons(row.skippedReasons, { [increment.skippedReason]: increment.counts.skipped });
    if (increment.failedReason && increment.counts.failed)
      addReasons(row.failedReasons, { [increment.failedReason]: increment.counts.failed });
    // An event counted on the workflow's row (processing's commit): read back as the events received by type.
    if (increment.eventType !== undefined)
      this.addEvent({
        clientId: increment.clientId,
        day: increment.day,
        type: increment.eventType,
        spread: increment.spread,
        shards: increment.shards,
      });
  }

  addEvent(increment: EventTypeIncrement): void {
    const shard = statsShardOf(increment.spread, increment.shards);
    const key = `${increment.clientId}#${shard}#${increment.day}#${increment.type}`;
    const row = this.eventRows.get(key) ?? {
      clientId: increment.clientId,
      shard,
      day: increment.day,
      type: increment.type,
      received: 0,
    };
    row.received += 1;
    this.eventRows.set(key, row);
  }

  /** Shards a read covered, in order (the Queries DynamoStatsStore would send), for tests. */
  readonly reads: { clientId: number; shards: number }[] = [];

  async read(clientId: number, shards: number, fromDay: string, toDay: string, workflowId?: number) {
    this.reads.push({ clientId, shards: Math.max(1, shards) });
    const inRange = (row: { clientId: number; shard: number; day: string }) =>
      row.clientId === clientId && row.shard < Math.max(1, shards) && row.day >= fromDay && row.day <= toDay;
    const strip = <T extends { clientId: number; shard: number }>({ clientId: _c, shard: _s, ...row }: T) =>
      structuredClone(row);
    return {
      workflows: [...this.workflowRows.values()]
        .filter((r) => inRange(r) && (workflowId === undefined || r.workflowId === workflowId))
        .map(strip),
      events: workflowId === undefined ? [...this.eventRows.values()].filter(inRange).map(strip) : [],
    };
  }
}
