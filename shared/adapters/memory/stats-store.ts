import {
  type CountedChange,
  type CounterDelta,
  counterRowKey,
  deltasOfChange,
} from '../../domain/stats/counter-facts.js';
import {
  addCounts,
  addReasons,
  zeroCounts,
  type EventTypeDayRow,
  type WorkflowDayRow,
} from '../../domain/stats/stats-counters.js';
import type { StatsStore } from '../../domain/stats/stats-store.js';

/**
 * The day counters in memory. The memory stores report each change of a counted record (an event processed, an
 * execution moved, a log written) as the table's change stream would, and the same rules (counter-facts.ts) turn it
 * into the rows the DynamoDB projection would write — at once, where the stream takes a few seconds. Reads answer as
 * DynamoStatsStore does.
 */
export class MemoryStatsStore implements StatsStore {
  /** `<client>#<day>#W<workflow>` → row. */
  readonly workflowRows = new Map<string, WorkflowDayRow & { clientId: number }>();
  /** `<client>#<day>#E<type>` → row. */
  readonly eventRows = new Map<string, EventTypeDayRow & { clientId: number }>();
  /** counterRowKey → a journey step row's or gauge's counters. */
  readonly journeyRows = new Map<string, Record<string, number>>();
  /** Reads, in order (the Queries DynamoStatsStore would send), for tests. */
  readonly reads: { clientId: number }[] = [];

  /** One change of a counted record, counted as the stream projection counts it. */
  changed(change: CountedChange): void {
    for (const delta of deltasOfChange(change)) this.add(delta);
  }

  add(delta: CounterDelta): void {
    const key = counterRowKey(delta);
    if ('eventType' in delta.row) {
      const row = this.eventRows.get(key) ?? {
        clientId: delta.clientId,
        day: delta.day,
        type: delta.row.eventType,
        received: 0,
      };
      row.received += delta.received ?? 0;
      this.eventRows.set(key, row);
      return;
    }
    if (!('workflowId' in delta.row)) {
      // Journey step rows and gauges: kept by key, as the table keeps their attributes.
      const row = this.journeyRows.get(key) ?? {};
      for (const [name, n] of Object.entries(delta.adds ?? {})) row[name] = (row[name] ?? 0) + n;
      for (const [name, at] of Object.entries(delta.firstSeen ?? {})) row[name] ??= at;
      this.journeyRows.set(key, row);
      return;
    }
    const row = this.workflowRows.get(key) ?? {
      clientId: delta.clientId,
      day: delta.day,
      workflowId: delta.row.workflowId,
      counts: zeroCounts(),
      skippedReasons: {},
      failedReasons: {},
    };
    addCounts(row.counts, delta.counts ?? {});
    addReasons(row.skippedReasons, delta.skippedReasons ?? {});
    addReasons(row.failedReasons, delta.failedReasons ?? {});
    this.workflowRows.set(key, row);
  }

  async read(clientId: number, fromDay: string, toDay: string, workflowId?: number) {
    this.reads.push({ clientId });
    const inRange = (row: { clientId: number; day: string }) =>
      row.clientId === clientId && row.day >= fromDay && row.day <= toDay;
    const strip = <T extends { clientId: number }>({ clientId: _c, ...row }: T) => structuredClone(row);
    return {
      workflows: [...this.workflowRows.values()]
        .filter((r) => inRange(r) && (workflowId === undefined || r.workflowId === workflowId))
        .map(strip),
      events: workflowId === undefined ? [...this.eventRows.values()].filter(inRange).map(strip) : [],
    };
  }

  async readJourney(clientId: number, journeyId: number, fromDay: string, toDay: string) {
    const days: { day: string; stepId: string; counts: Record<string, number> }[] = [];
    const prefix = `${clientId}#`;
    for (const [key, counts] of this.journeyRows) {
      const match = /^(\d{4}-\d{2}-\d{2})#J(\d+)#(.+)$/.exec(key.startsWith(prefix) ? key.slice(prefix.length) : '');
      if (!match || Number(match[2]) !== journeyId || match[1]! < fromDay || match[1]! > toDay) continue;
      days.push({ day: match[1]!, stepId: match[3]!, counts: { ...counts } });
    }
    const arms = Object.fromEntries(
      Object.entries(this.journeyRows.get(`${clientId}#NOW#J${journeyId}`) ?? {}).filter(([name]) =>
        name.startsWith('x_'),
      ),
    );
    return { days, now: await this.readJourneyGauge(clientId, journeyId), arms };
  }

  async readJourneyGauge(clientId: number, journeyId: number) {
    const now: Record<string, number> = {};
    for (const [name, n] of Object.entries(this.journeyRows.get(`${clientId}#NOW#J${journeyId}`) ?? {}))
      if (name.startsWith('s_') && n !== 0) now[name.slice(2)] = n;
    return now;
  }
}
