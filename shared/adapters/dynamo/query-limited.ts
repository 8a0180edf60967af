import { QueryCommand, type DynamoDBDocumentClient, type QueryCommandInput } from '@aws-sdk/lib-dynamodb';

/**
 * At most `limit` items a Query matches, in its order, and whether more follow: it asks for `limit` + 1 (a
 * `LastEvaluatedKey` alone cannot say, DynamoDB returns one whenever the Limit is reached), and calls again only
 * where a call stopped at 1 MB before that. Never evaluates more than `limit` + 1 items.
 */
export async function queryLimited(
  db: DynamoDBDocumentClient,
  input: Omit<QueryCommandInput, 'Limit'>,
  limit: number,
): Promise<{ items: Record<string, unknown>[]; more: boolean }> {
  const items: Record<string, unknown>[] = [];
  let start = input.ExclusiveStartKey;
  do {
    const out = await db.send(
      new QueryCommand({ ...input, ExclusiveStartKey: start, Limit: limit + 1 - items.length }),
    );
    items.push(...(out.Items ?? []));
    start = out.LastEvaluatedKey;
  } while (start && items.length <= limit);
  return { items: items.slice(0, limit), more: items.length > limit };
}
