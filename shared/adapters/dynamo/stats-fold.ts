import { TransactionCanceledException } from '@aws-sdk/client-dynamodb';
import { TransactWriteCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { STAT_COUNTERS } from '../../domain/stats/stats-counters.js';
import { keys } from './keys.js';
import { queryAll } from './query-all.js';
import { EVENT_PREFIX, FAIL_REASON_PREFIX, RECEIVED, SKIP_REASON_PREFIX } from './stats-attributes.js';

/** What a fold did for one client: rows moved into shard 0, and rows another run had moved already. */
export interface FoldOutcome {
  clientId: number;
  folded: number;
  alreadyFolded: number;
}

const COUNTED = new Set<string>([...STAT_COUNTERS, RECEIVED]);
const isCounted = (name: string, value: unknown): value is number =>
  typeof value === 'number' &&
  (COUNTED.has(name) ||
    name.startsWith(SKIP_REASON_PREFIX) ||
    name.startsWith(FAIL_REASON_PREFIX) ||
    name.startsWith(EVENT_PREFIX));

/**
 * Folds a client's day rows written on stats shards 1..15 (when each fact counted itself, spread over shards) into
 * shard 0, the one partition reads cover now. Each row moves in one transaction: its counts added to the shard-0 row
 * of the same day and workflow (or event type), and the old row deleted on condition it still exists — so a fold
 * run twice, or stopped and run again, adds every row exactly once.
 */
export async function foldLegacyStatsShards(
  db: DynamoDBDocumentClient,
  tableName: string,
  clientId: number,
): Promise<FoldOutcome> {
  const outcome: FoldOutcome = { clientId, folded: 0, alreadyFolded: 0 };
  for (let shard = 1; shard < keys.legacyStatsShards; shard += 1) {
    const rows = await queryAll(db, {
      TableName: tableName,
      KeyConditionExpression: 'pk = :pk',
      ExpressionAttributeValues: { ':pk': keys.statsPk(clientId, shard) },
      ConsistentRead: true,
    });
    for (const row of rows) {
      const adds = Object.entries(row).filter(([name, value]) => isCounted(name, value)) as [string, number][];
      const names: Record<string, string> = { '#day': 'day' };
      const values: Record<string, unknown> = { ':day': row['day'], ':expires': row['expires_at'] ?? 0 };
      adds.forEach(([name, value], i) => {
        names[`#a${i}`] = name;
        values[`:a${i}`] = value;
      });
      const identity = typeof row['event_type'] === 'string' ? 'event_type' : 'workflow_id';
      values[':id'] = row[identity];
      try {
        await db.send(
          new TransactWriteCommand({
            TransactItems: [
              {
                Update: {
                  TableName: tableName,
                  Key: { pk: keys.statsPk(clientId), sk: row['sk'] },
                  UpdateExpression:
                    `${adds.length > 0 ? `ADD ${adds.map((_, i) => `#a${i} :a${i}`).join(', ')} ` : ''}` +
                    `SET ${identity} = if_not_exists(${identity}, :id), #day = if_not_exists(#day, :day), ` +
                    'expires_at = if_not_exists(expires_at, :expires)',
                  ExpressionAttributeNames: names,
                  ExpressionAttributeValues: values,
                },
              },
              {
                Delete: {
                  TableName: tableName,
                  Key: { pk: row['pk'], sk: row['sk'] },
                  ConditionExpression: 'attribute_exists(pk)',
                },
              },
            ],
          }),
        );
        outcome.folded += 1;
      } catch (error) {
        const moved =
          error instanceof TransactionCanceledException &&
          error.CancellationReasons?.[1]?.Code === 'ConditionalCheckFailed';
        if (!moved) throw error;
        outcome.alreadyFolded += 1;
      }
    }
  }
  return outcome;
}
