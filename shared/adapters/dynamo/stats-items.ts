import type { TransactWriteCommandInput } from '@aws-sdk/lib-dynamodb';
import {
  STAT_COUNTERS,
  statsShardOf,
  type EventTypeIncrement,
  type StatsIncrement,
} from '../../domain/stats/stats-counters.js';
import { keys } from './keys.js';

type TransactItem = NonNullable<TransactWriteCommandInput['TransactItems']>[number];

/** Attribute of a day row that counts a skip or a failure by reason: `skip:<reason>`, `fail:<reason>`. */
export const SKIP_REASON_PREFIX = 'skip:';
export const FAIL_REASON_PREFIX = 'fail:';
/** Attribute of an event-type row that counts the events received. */
export const RECEIVED = 'received';
/** Attribute of a workflow day row that counts events of a type received (processing's commit, `eventType`): `event:<type>`. */
export const EVENT_PREFIX = 'event:';

/** How long a day row is kept (its TTL), by default: a year and a month, so a year-on-year view has its days. */
export const DEFAULT_STATS_RETENTION_DAYS = 400;

export interface StatsItemsOptions {
  /**
   * Measurement only, default true. False makes every builder return undefined, so the stores record their facts
   * exactly as they would without day counters: `npm run bench` (scripts/bench/stats.ts) builds stores this way to
   * price the counters (requests and write units with and without). No configuration sets it and the composition
   * (shared/composition/providers/stats-items.ts) never passes it: the service always counts.
   */
  counting?: boolean;
}

/**
 * The day-counter items a store adds to the transaction that records a fact: one `Update` with `ADD`s,
 * never a request of its own. The row is created by its first `ADD`; `expires_at` is set once, `retentionDays` after
 * its day. Every builder may answer undefined (nothing to add); the stores leave the item out then.
 */
export class StatsItems {
  private readonly counting: boolean;

  constructor(
    private readonly tableName: string,
    private readonly retentionDays: number = DEFAULT_STATS_RETENTION_DAYS,
    options: StatsItemsOptions = {},
  ) {
    this.counting = options.counting ?? true;
  }

  /** The workflow day row's update for `increment`; undefined when it adds nothing (or counting is off). */
  workflowDay(increment: StatsIncrement): TransactItem | undefined {
    if (!this.counting) return undefined;
    const adds: [string, number][] = STAT_COUNTERS.flatMap((name) => {
      const value = increment.counts[name] ?? 0;
      return value === 0 ? [] : [[name, value] as [string, number]];
    });
    if (increment.skippedReason && increment.counts.skipped)
      adds.push([`${SKIP_REASON_PREFIX}${increment.skippedReason}`, increment.counts.skipped]);
    if (increment.failedReason && increment.counts.failed)
      adds.push([`${FAIL_REASON_PREFIX}${increment.failedReason}`, increment.counts.failed]);
    if (increment.eventType !== undefined) adds.push([`${EVENT_PREFIX}${increment.eventType}`, 1]);
    if (adds.length === 0) return undefined;
    const names: Record<string, string> = { '#day': 'day' };
    const values: Record<string, unknown> = {
      ':workflow': increment.workflowId,
      ':day': increment.day,
      ':expires': this.expiresAt(increment.day),
    };
    adds.forEach(([name, value], i) => {
      names[`#a${i}`] = name;
      values[`:a${i}`] = value;
    });
    return {
      Update: {
        TableName: this.tableName,
        Key: keys.statsWorkflowDay(
          increment.clientId,
          statsShardOf(increment.spread, increment.shards),
          increment.day,
          increment.workflowId,
        ),
        UpdateExpression:
          `ADD ${adds.map((_, i) => `#a${i} :a${i}`).join(', ')} ` +
          'SET workflow_id = :workflow, #day = :day, expires_at = if_not_exists(expires_at, :expires)',
        ExpressionAttributeNames: names,
        ExpressionAttributeValues: values,
      },
    };
  }

  /** The event-type day row's update: one more event of that type received (undefined only when counting is off). */
  eventType(increment: EventTypeIncrement): TransactItem | undefined {
    if (!this.counting) return undefined;
    return {
      Update: {
        TableName: this.tableName,
        Key: keys.statsEventTypeDay(
          increment.clientId,
          statsShardOf(increment.spread, increment.shards),
          increment.day,
          increment.type,
        ),
        UpdateExpression: `ADD ${RECEIVED} :one SET event_type = :type, #day = :day, expires_at = if_not_exists(expires_at, :expires)`,
        ExpressionAttributeNames: { '#day': 'day' },
        ExpressionAttributeValues: {
          ':one': 1,
          ':type': increment.type,
          ':day': increment.day,
          ':expires': this.expiresAt(increment.day),
        },
      },
    };
  }

  private expiresAt(day: string): number {
    return Math.floor(Date.parse(`${day}T00:00:00.000Z`) / 1000) + this.retentionDays * 86_400;
  }
}

/** A builder's item as a list to spread into a transaction: none when it added nothing. */
export const optional = (item: TransactItem | undefined): TransactItem[] => (item ? [item] : []);
