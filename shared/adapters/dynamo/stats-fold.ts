import { TransactionCanceledException } from '@aws-sdk/client-dynamodb';
import { TransactWriteCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { STAT_COUNTERS } from '../../domain/stats/stats-counters.js';
import { keys } from './keys.js';
import { queryAll } from './query-all.js';
import { dayRowUpdate, EVENT_PREFIX, FAIL_REASON_PREFIX, RECEIVED, SKIP_REASON_PREFIX } from './stats-attributes.js';

/** What a fold did for one client: rows moved into shard 0, and rows another run had moved already. */
export interface FoldOutcome {
  clientId: number;
  folded: number;
  alreadyFolded: number;
}

/** Rows moved at once: each its own transaction, a wave of them in parallel. */
const FOLD_WAVE = 25;

const COUNTED = new Set<string>([...STAT_COUNTERS, RECEIVED]);
const isCounted = (name: string, value: unknown): value is number =>
  typeof value === 'number' &&
  (COUNTED.has(name) ||
    name.startsWith(SKIP_REASON_PREFIX) ||
    name.startsWith(FAIL_REASON_PREFIX) ||
    name.startsWith(EVENT_PREFIX));

/**
 * Folds a client's day rows written on stats shards 1..15 (when each fact counted itself, spread over shards) into
 * shard 0, the one partition reads cover now. The 15 shards are read in one parallel wave; each row then moves in one
 * transaction (waves of 25): its counts added to the shard-0 row of the same day and workflow (or event type), and
 * the old row deleted on condition it still exists — so a fold run twice, or stopped and run again, adds every row
 * exactly once.
 */
export async function foldLegacyStatsShards(
  db: DynamoDBDocumentClient,
  tableName: string,
  clientId: number,
): Promise<FoldOutcome> {
  const shards = Array.from({ length: keys.legacyStatsShards - 1 }, (_, i) => i + 1);
  const rows = (
    await Promise.all(
      shards.map((shard) =>
        queryAll(db, {
          TableName: tableName,
          KeyConditionExpression: 'pk = :pk',
          ExpressionAttributeValues: { ':pk': keys.statsPk(clientId, shard) },
          ConsistentRead: true,
        }),
      ),
    )
  ).flat();
  const outcome: FoldOutcome = { clientId, folded: 0, alreadyFolded: 0 };
  for (let i = 0; i < rows.length; i += FOLD_WAVE) {
    const moved = await Promise.all(rows.slice(i, i + FOLD_WAVE).map((row) => foldRow(db, tableName, clientId, row)));
    const folded = moved.filter(Boolean).length;
    outcome.folded += folded;
    outcome.alreadyFolded += moved.length - folded;
  }
  return outcome;
}

/** One old row into shard 0; false when another run had moved it already. */
async function foldRow(
  db: DynamoDBDocumentClient,
  tableName: string,
  clientId: number,
  row: Record<string, unknown>,
): Promise<boolean> {
  const identity =
    typeof row['event_type'] === 'string'
      ? { event_type: row['event_type'] }
      : { workflow_id: Number(row['workflow_id']) };
  try {
    await db.send(
      new TransactWriteCommand({
        TransactItems: [
          {
            Update: dayRowUpdate(
              tableName,
              { pk: keys.statsPk(clientId), sk: String(row['sk']) },
              {
                identity,
                day: String(row['day']),
                expiresAt: Number(row['expires_at'] ?? 0),
                adds: Object.entries(row).filter(([name, value]) => isCounted(name, value)) as [string, number][],
              },
            ),
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
    return true;
  } catch (error) {
    const moved =
      error instanceof TransactionCanceledException &&
      error.CancellationReasons?.[1]?.Code === 'ConditionalCheckFailed';
    if (!moved) throw error;
    return false;
  }
}
