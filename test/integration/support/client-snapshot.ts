import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import { inject } from 'vitest';
import { keys } from '../../../shared/adapters/dynamo/keys.js';
import { TABLE_KEYS } from '../../../shared/adapters/dynamo/table-definition.js';
import { clientItems, documentClient } from './partition.js';

/**
 * Everything a request under `/client` may write for one client: its configuration and contacts (`clientItems`) and
 * its API keys (which live under `APIKEY#<hash>` and are found through their gsi1 listing). Id counters are left out on purpose: a refused
 * create may still reserve an id (gaps are documented). Equal snapshots mean nothing was written.
 */
export interface ClientSnapshot {
  items: Record<string, unknown>[];
  apiKeys: Record<string, unknown>[];
}

export async function clientSnapshot(clientId: number): Promise<ClientSnapshot> {
  const [items, apiKeys] = await Promise.all([clientItems(clientId), apiKeyItems(clientId)]);
  return { items, apiKeys };
}

async function apiKeyItems(clientId: number): Promise<Record<string, unknown>[]> {
  // The listing's partition key does not depend on the key id; 0 only satisfies the builder's signature.
  const { gsi1pk } = keys.apiKeyListing(clientId, 0);
  const items: Record<string, unknown>[] = [];
  let start: Record<string, unknown> | undefined;
  do {
    const page = await documentClient().send(
      new QueryCommand({
        TableName: inject('tableName'),
        IndexName: TABLE_KEYS.gsi1.name,
        KeyConditionExpression: '#pk = :pk',
        ExpressionAttributeNames: { '#pk': TABLE_KEYS.gsi1.partitionKey },
        ExpressionAttributeValues: { ':pk': gsi1pk },
        ExclusiveStartKey: start,
      }),
    );
    items.push(...(page.Items ?? []));
    start = page.LastEvaluatedKey;
  } while (start);
  return items;
}
