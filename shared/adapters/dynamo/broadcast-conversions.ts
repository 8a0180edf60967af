import { type DynamoDBDocumentClient, GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { ConversionBroadcast } from '../../domain/broadcasts/conversions.js';
import { keys } from './keys.js';

/** An entry's attribute on the client's conversions item: `b_<broadcast id>`. */
const ENTRY_PREFIX = 'b_';

/** The entries of the client's conversions item (`CLIENT#<c> / BCASTCONV`). */
export function conversionEntriesOf(item: Record<string, unknown>): ConversionBroadcast[] {
  return Object.entries(item).flatMap(([name, value]) => {
    if (!name.startsWith(ENTRY_PREFIX) || typeof value !== 'object' || value === null) return [];
    const e = value as Record<string, unknown>;
    return typeof e['broadcast_id'] === 'number' &&
      typeof e['event'] === 'string' &&
      typeof e['window_days'] === 'number' &&
      typeof e['from'] === 'string' &&
      typeof e['until'] === 'string'
      ? [e as unknown as ConversionBroadcast]
      : [];
  });
}

/**
 * A broadcast listed on the client's conversions item (set, or replaced when scheduled again), and the entries whose
 * span has ended taken off in the same update: one GetItem and one UpdateItem, at schedule time only. Processing reads
 * the item through the configuration cache (up to its 30 s on other containers).
 */
export async function listConversion(
  db: DynamoDBDocumentClient,
  tableName: string,
  clientId: number,
  entry: ConversionBroadcast,
  now: Date,
): Promise<void> {
  const key = keys.broadcastConversions(clientId);
  const read = await db.send(new GetCommand({ TableName: tableName, Key: key, ConsistentRead: true }));
  const ended = conversionEntriesOf(read.Item ?? {}).filter(
    (e) => e.until < now.toISOString() && e.broadcast_id !== entry.broadcast_id,
  );
  const names: Record<string, string> = { '#e': `${ENTRY_PREFIX}${entry.broadcast_id}` };
  ended.forEach((e, i) => {
    names[`#r${i}`] = `${ENTRY_PREFIX}${e.broadcast_id}`;
  });
  await db.send(
    new UpdateCommand({
      TableName: tableName,
      Key: key,
      UpdateExpression: `SET #e = :e${ended.length > 0 ? ` REMOVE ${ended.map((_, i) => `#r${i}`).join(', ')}` : ''}`,
      ExpressionAttributeNames: names,
      ExpressionAttributeValues: { ':e': entry },
    }),
  );
}
