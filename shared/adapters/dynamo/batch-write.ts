import { BatchWriteCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { backoffDelay, DEFAULT_BACKOFF, retryTransient, sleep, type BackoffOptions } from './backoff.js';

/** BatchWriteItem's limit of requests per call. */
export const BATCH_WRITE_MAX_ITEMS = 25;

/**
 * Puts every item in one wave: 25 a call, all calls in parallel; each call's `UnprocessedItems` are sent again with
 * jittered backoff until none are left (an error once the rounds are used up, never a silently dropped item), and
 * throttling that outlasts the SDK's retries is retried too. Items are whole puts (no condition): for writes that
 * may be repeated with the same content.
 */
export async function batchPutItems(
  db: DynamoDBDocumentClient,
  tableName: string,
  items: readonly Record<string, unknown>[],
  backoff: BackoffOptions = DEFAULT_BACKOFF,
): Promise<void> {
  const chunks: Record<string, unknown>[][] = [];
  for (let i = 0; i < items.length; i += BATCH_WRITE_MAX_ITEMS) chunks.push(items.slice(i, i + BATCH_WRITE_MAX_ITEMS));
  await Promise.all(chunks.map((chunk) => writeChunk(db, tableName, chunk, backoff)));
}

/** Deletes every key in one wave, as batchPutItems puts: 25 a call, all calls in parallel, unprocessed ones again. */
export async function batchDeleteItems(
  db: DynamoDBDocumentClient,
  tableName: string,
  keys: readonly { pk: string; sk: string }[],
  backoff: BackoffOptions = DEFAULT_BACKOFF,
): Promise<void> {
  const requests = keys.map((k) => ({ DeleteRequest: { Key: { pk: k.pk, sk: k.sk } } }));
  const chunks: (typeof requests)[] = [];
  for (let i = 0; i < requests.length; i += BATCH_WRITE_MAX_ITEMS)
    chunks.push(requests.slice(i, i + BATCH_WRITE_MAX_ITEMS));
  await Promise.all(chunks.map((chunk) => writeRequests(db, tableName, chunk, backoff)));
}

async function writeChunk(
  db: DynamoDBDocumentClient,
  tableName: string,
  items: Record<string, unknown>[],
  backoff: BackoffOptions,
): Promise<void> {
  await writeRequests(
    db,
    tableName,
    items.map((Item) => ({ PutRequest: { Item } })),
    backoff,
  );
}

async function writeRequests(
  db: DynamoDBDocumentClient,
  tableName: string,
  requests: Record<string, unknown>[],
  backoff: BackoffOptions,
): Promise<void> {
  let pending = requests;
  for (let attempt = 1; pending.length > 0; attempt += 1) {
    if (attempt > backoff.attempts)
      throw new Error(`BatchWriteItem left ${pending.length} items unprocessed after ${backoff.attempts} attempts`);
    if (attempt > 1) await sleep(backoffDelay(attempt - 1, backoff));
    const out = await retryTransient(
      () => db.send(new BatchWriteCommand({ RequestItems: { [tableName]: pending } })),
      backoff,
    );
    pending = (out.UnprocessedItems?.[tableName] ?? []) as typeof pending;
  }
}
