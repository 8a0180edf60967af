import { BatchGetCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { ItemKey } from './keys.js';

const MAX_KEYS_PER_REQUEST = 100;
const MAX_ROUNDS = 8;

/**
 * Reads up to 100 items of one table in one BatchGetItem (more in chunks), re-asking for keys DynamoDB left
 * unprocessed with a short backoff. Items come back in no particular order.
 */
export async function batchGetItems(
  db: DynamoDBDocumentClient,
  tableName: string,
  keys: readonly ItemKey[],
  options: { consistentRead?: boolean } = {},
): Promise<Record<string, unknown>[]> {
  const items: Record<string, unknown>[] = [];
  for (let i = 0; i < keys.length; i += MAX_KEYS_PER_REQUEST) {
    let pending: Record<string, unknown>[] = keys.slice(i, i + MAX_KEYS_PER_REQUEST).map((k) => ({ pk: k.pk, sk: k.sk }));
    for (let round = 0; pending.length > 0; round += 1) {
      if (round >= MAX_ROUNDS) throw new Error(`BatchGetItem left ${pending.length} keys unprocessed`);
      if (round > 0) await new Promise((resolve) => setTimeout(resolve, Math.random() * 20 * 2 ** round));
      const out = await db.send(
        new BatchGetCommand({
          RequestItems: { [tableName]: { Keys: pending, ConsistentRead: options.consistentRead } },
        }),
      );
      items.push(...(out.Responses?.[tableName] ?? []));
      pending = (out.UnprocessedKeys?.[tableName]?.Keys as Record<string, unknown>[] | undefined) ?? [];
    }
  }
  return items;
}
