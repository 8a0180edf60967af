import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import {
  STAT_COUNTERS,
  zeroCounts,
  type EventTypeDayRow,
  type WorkflowDayRow,
} from '../../domain/stats/stats-counters.js';
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { ARM_PREFIX, GAUGE_PREFIX } from '../../domain/stats/counter-facts.js';
import type { JourneyStepDayRow, StatsStore } from '../../domain/stats/stats-store.js';
import { keys } from './keys.js';
import { queryAll } from './query-all.js';
import { EVENT_PREFIX, FAIL_REASON_PREFIX, RECEIVED, SKIP_REASON_PREFIX } from './stats-attributes.js';

/**
 * Reads a client's day rows: one Query of its one partition, a range of sort keys over the days asked. The rows are
 * small (≈ 0.2 KB): 90 days of 8 workflows and 7 event types is ≈ 1 350 rows, ≈ 40 read units eventually consistent,
 * in one page.
 */
export class DynamoStatsStore implements StatsStore {
  constructor(
    private readonly db: DynamoDBDocumentClient,
    private readonly tableName: string,
  ) {}

  async read(clientId: number, fromDay: string, toDay: string, workflowId?: number) {
    const range = keys.statsDayRange(fromDay, toDay);
    const items = await queryAll(this.db, {
      TableName: this.tableName,
      KeyConditionExpression: 'pk = :pk AND sk BETWEEN :from AND :to',
      ExpressionAttributeValues: {
        ':pk': keys.statsPk(clientId),
        ':from': range.from,
        ':to': range.to,
        ...(workflowId !== undefined ? { ':workflow': workflowId } : {}),
      },
      ...(workflowId !== undefined ? { FilterExpression: 'workflow_id = :workflow' } : {}),
    });
    const workflows: WorkflowDayRow[] = [];
    const events: EventTypeDayRow[] = [];
    for (const item of items) {
      // A journey step's row shares the days' range; GET /client/journeys/{id}/stats reads those.
      if (item['journey_id'] !== undefined) continue;
      const day = String(item['day']);
      if (typeof item['event_type'] === 'string') {
        events.push({ day, type: item['event_type'], received: numberOf(item[RECEIVED]) });
        continue;
      }
      const counts = zeroCounts();
      for (const name of STAT_COUNTERS) counts[name] = numberOf(item[name]);
      workflows.push({
        day,
        workflowId: numberOf(item['workflow_id']),
        counts,
        skippedReasons: reasonsOf(item, SKIP_REASON_PREFIX),
        failedReasons: reasonsOf(item, FAIL_REASON_PREFIX),
      });
      // Events counted on a workflow's row before the projection (stats-attributes.ts EVENT_PREFIX): events received.
      if (workflowId === undefined)
        for (const [type, received] of Object.entries(reasonsOf(item, EVENT_PREFIX)))
          events.push({ day, type, received });
    }
    return { workflows, events };
  }

  /**
   * The journey's rows sit among the client's other rows of each day, so the Query reads the days' range and keeps the
   * journey's (as a workflow's stats do); the gauge is one GetItem beside it.
   */
  async readJourney(clientId: number, journeyId: number, fromDay: string, toDay: string) {
    const from = keys.statsJourneyStepDay(clientId, fromDay, journeyId, '').sk;
    const to = `${keys.statsJourneyStepDay(clientId, toDay, journeyId, '').sk}~`;
    const [items, now] = await Promise.all([
      queryAll(this.db, {
        TableName: this.tableName,
        KeyConditionExpression: 'pk = :pk AND sk BETWEEN :from AND :to',
        FilterExpression: 'journey_id = :journey',
        ExpressionAttributeValues: { ':pk': keys.statsPk(clientId), ':from': from, ':to': to, ':journey': journeyId },
      }),
      this.db.send(new GetCommand({ TableName: this.tableName, Key: keys.statsJourneyGauge(clientId, journeyId) })),
    ]);
    const days: JourneyStepDayRow[] = items.map((item) => {
      const counts: Record<string, number> = {};
      for (const [name, value] of Object.entries(item))
        if (!JOURNEY_ROW_FIELDS.has(name) && typeof value === 'number') counts[name] = value;
      return { day: String(item['day']), stepId: String(item['step_id']), counts };
    });
    return { days, now: gaugeOf(now.Item), arms: armsOf(now.Item) };
  }

  async readJourneyGauge(clientId: number, journeyId: number) {
    const read = await this.db.send(
      new GetCommand({ TableName: this.tableName, Key: keys.statsJourneyGauge(clientId, journeyId) }),
    );
    return gaugeOf(read.Item);
  }
}

/** A gauge item's `s_<step>` attributes by step (zeros left out). */
function gaugeOf(item: Record<string, unknown> | undefined): Record<string, number> {
  const now: Record<string, number> = {};
  for (const [name, value] of Object.entries(item ?? {}))
    if (name.startsWith(GAUGE_PREFIX) && typeof value === 'number' && value !== 0)
      now[name.slice(GAUGE_PREFIX.length)] = value;
  return now;
}

/** A gauge item's split arm totals (`x_…`). */
function armsOf(item: Record<string, unknown> | undefined): Record<string, number> {
  const arms: Record<string, number> = {};
  for (const [name, value] of Object.entries(item ?? {}))
    if (name.startsWith(ARM_PREFIX) && typeof value === 'number') arms[name] = value;
  return arms;
}

const JOURNEY_ROW_FIELDS = new Set(['pk', 'sk', 'journey_id', 'step_id', 'day', 'expires_at']);

const numberOf = (value: unknown): number => (typeof value === 'number' ? value : 0);

function reasonsOf(item: Record<string, unknown>, prefix: string): Record<string, number> {
  const reasons: Record<string, number> = {};
  for (const [name, value] of Object.entries(item))
    if (name.startsWith(prefix) && typeof value === 'number' && value !== 0) reasons[name.slice(prefix.length)] = value;
  return reasons;
}
