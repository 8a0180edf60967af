import { BatchGetCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { backoffDelay, DEFAULT_BACKOFF, retryTransient, sleep, type BackoffOptions } from './backoff.js';
import type { ItemKey } from './keys.js';

/** BatchGetItem's limit of keys per call. */
export const BATCH_GET_MAX_KEYS = 100;

export interface BatchGetOptions {
  /** Strongly consistent reads (locks and just-written rows must not be read stale). Default true. */
  consistentRead?: boolean;
  /** Attributes to return; the key attributes are always added. Default: whole items. */
  attributes?: readonly string[];
  /** Rounds for `UnprocessedKeys` and attempts for throttling, with their delays (tests shorten them). */
  backoff?: BackoffOptions;
}

/**
 * Reads every key of one table in one wave: 100 keys a call and all calls in parallel. Each call's
 * `UnprocessedKeys` are asked again with jittered backoff until none are left — an error once the rounds are
 * used up, never a silently missing item — and throttling that outlasts the SDK's retries is retried too.
 * Duplicate keys are read once. Returns the items found, in no particular order.
 */
export async function batchGetItems(
  db: DynamoDBDocumentClient,
  tableName: string,
  keys: readonly ItemKey[],
  options: BatchGetOptions = {},
): Promise<Record<string, unknown>[]> {
  const unique = [...new Map(keys.map((k) => [`${k.pk}\u0000${k.sk}`, k])).values()];
  const chunks: ItemKey[][] = [];
  for (let i = 0; i < unique.length; i += BATCH_GET_MAX_KEYS) chunks.push(unique.slice(i, i + BATCH_GET_MAX_KEYS));
  const results = await Promise.all(chunks.map((chunk) => readChunk(db, tableName, chunk, options)));
  return results.flat();
}

async function readChunk(
  db: DynamoDBDocumentClient,
  tableName: string,
  keys: ItemKey[],
  options: BatchGetOptions,
): Promise<Record<string, unknown>[]> {
  const backoff = options.backoff ?? DEFAULT_BACKOFF;
  const projection = options.attributes ? [...new Set(['pk', 'sk', ...options.attributes])] : undefined;
  const items: Record<string, unknown>[] = [];
  let pending: Record<string, unknown>[] = keys.map((k) => ({ pk: k.pk, sk: k.sk }));
  for (let attempt = 1; pending.length > 0; attempt += 1) {
    if (attempt > backoff.attempts) {
      throw new Error(`BatchGetItem left ${pending.length} keys unprocessed after ${backoff.attempts} attempts`);
    }
    if (attempt > 1) await sleep(backoffDelay(attempt - 1, backoff));
    const request = {
      Keys: pending,
      ConsistentRead: options.consistentRead ?? true,
      ...(projection
        ? {
            ProjectionExpression: projection.map((_, i) => `#p${i}`).join(', '),
            ExpressionAttributeNames: Object.fromEntries(projection.map((name, i) => [`#p${i}`, name])),
          }
        : {}),
    };
    const out = await retryTransient(
      () => db.send(new BatchGetCommand({ RequestItems: { [tableName]: request } })),
      backoff,
    );
    items.push(...(out.Responses?.[tableName] ?? []));
    pending = (out.UnprocessedKeys?.[tableName]?.Keys ?? []) as Record<string, unknown>[];
  }
  return items;
}
